import { composeStories } from '@storybook/react-vite'
import { screen } from '@testing-library/dom'
import { createSandbox } from 'petstore-sandbox'
import { expect, test } from 'vitest'
import * as stories from './pet-list.stories.js'

const { Default, RateLimited, ExpiredKey, EmptyStore } = composeStories(stories)

test('Default shows the seeded pets', async () => {
  await Default.run()
  const items = await screen.findAllByRole('listitem')
  const seeded = createSandbox({ seed: 42 })
  await seeded.ready
  expect(items.map((item) => item.textContent)).toEqual(
    seeded.db.pets
      .all()
      .slice(0, 5)
      .map((pet) => pet.name),
  )
})

test('RateLimited shows the 429 message with the wait', async () => {
  await RateLimited.run()
  expect((await screen.findByRole('alert')).textContent).toMatch(/Try again in \d+ s\.$/)
})

test('ExpiredKey shows the API error message', async () => {
  await ExpiredKey.run()
  expect((await screen.findByRole('alert')).textContent).toMatch(/expired/i)
})

test('EmptyStore shows an empty list, and the next story is back to the seed', async () => {
  await EmptyStore.run()
  await screen.findByRole('list')
  expect(screen.queryAllByRole('listitem')).toHaveLength(0)
  await Default.run()
  expect(await screen.findAllByRole('listitem')).toHaveLength(5)
})
