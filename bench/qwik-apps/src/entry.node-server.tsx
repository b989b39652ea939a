/** The bench server on Qwik 1: Qwik City's Node middleware (see `listen.ts`). */
import { createQwikCity } from "@builder.io/qwik-city/middleware/node"
import qwikCityPlan from "@qwik-city-plan"
import render from "./entry.ssr"
import { listen } from "./listen"

listen(createQwikCity({ render, qwikCityPlan }))
