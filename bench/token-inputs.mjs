// The inputs every token bench uses, so the Node and the Web Crypto suites measure the same.
export const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"
export const SALT = "authjs.session-token"
export const session = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  picture: "https://avatars.example.com/u/1815?v=4",
  sub: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
}
export const rotation = [
  "old-secret-one-0123456789abcdef0123",
  "old-secret-two-0123456789abcdef0123",
  SECRET,
]
