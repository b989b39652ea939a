// The only line that differs between the three builds: `build.mjs` aliases `~auth-variant` to
// `src/auth/<variant>.ts` (Latchkey, Auth.js, or no auth at all).
export * from "~auth-variant"
