import { component$ } from "@builder.io/qwik"
import { QwikCityProvider, RouterOutlet, useDocumentHead, useLocation } from "@builder.io/qwik-city"
import "./global.css"

const RouterHead = component$(() => {
  const head = useDocumentHead()
  const loc = useLocation()
  return (
    <>
      <title>{head.title ? `${head.title} · Latchkey demo` : "Latchkey demo"}</title>
      <link rel="canonical" href={loc.url.href} />
      <meta name="viewport" content="width=device-width, initial-scale=1.0" />
      <link rel="icon" href="data:," />
    </>
  )
})

export default component$(() => (
  <QwikCityProvider>
    <head>
      <meta charset="utf-8" />
      <RouterHead />
    </head>
    <body>
      <RouterOutlet />
    </body>
  </QwikCityProvider>
))
