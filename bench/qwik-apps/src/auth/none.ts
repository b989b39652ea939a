// The same app without auth: no middleware, no loader. The page shows "no auth".
export const useSession = () => ({ value: undefined })
