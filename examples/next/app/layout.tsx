import type { ReactNode } from 'react'

export const metadata = { title: 'Pets on petstore-sandbox' }

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  )
}
