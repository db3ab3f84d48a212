import type { Meta, StoryObj } from '@storybook/react-vite'
import { PetList } from './pet-list.js'

// Each story picks the sandbox's behaviour with a demo key: no handlers to write.
const meta = {
  title: 'PetList',
  component: PetList,
  args: { apiKey: 'sandbox-free-key' },
} satisfies Meta<typeof PetList>
export default meta

type Story = StoryObj<typeof meta>

/** The seeded pets. */
export const Default: Story = {}

/** A key whose scenario is rate-limited: 429 with Retry-After. */
export const RateLimited: Story = { args: { apiKey: 'sandbox-rate-limited-key' } }

/** An expired key: 401 expired_api_key. */
export const ExpiredKey: Story = { args: { apiKey: 'sandbox-expired-key' } }

/** An empty store, for the empty state. */
export const EmptyStore: Story = {
  beforeEach({ msw }) {
    // `msw` is the sandbox's worker: its sandbox switches scenario until the next story.
    ;(
      msw as unknown as { sandbox: { useScenario(name: string): void } }
    ).sandbox.useScenario('empty-store')
  },
}
