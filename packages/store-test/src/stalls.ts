/**
 * Time bounds of tests on a loaded machine. A test that checks a call is bounded (answered
 * within its timeout, not left hanging) measures wall time, and a machine under twice its cores
 * in load may not run the test's process at all for a second or more: a fixed margin only moves
 * the line. The stall is measured instead, and the bound allows for it.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"

/**
 * The longest this process's event loop stalled between `start` and `stop()`, in ms: time a
 * busy machine did not run the test at all, which no store or adapter can prevent and a time
 * bound of a test must allow for.
 */
export function watchStalls(): { stop(): number } {
  const delays = monitorEventLoopDelay({ resolution: 10 })
  delays.enable()
  return {
    stop() {
      delays.disable()
      return delays.max / 1e6
    },
  }
}
