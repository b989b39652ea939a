/** The demo account, seeded at start-up. Kept apart from the user store so pages can show it. */
export const DEMO_EMAIL = "demo@example.com"
export const DEMO_PASSWORD = "latchkey-demo"
