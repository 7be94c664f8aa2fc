#!/usr/bin/python3
"""The bench board (tests/bench/million.yaml) as a SimPy 3 model, run with
Debian's python3-simpy3, for the simulator row of make bench.

Same semantics as sim-core's model for this board, as closely as a process
per job allows: Poisson arrivals; the users publish to the broker over
HTTP/2 (rtt/2); the broker sends a message only when one of the consumer's
`concurrency` slots is free (prefetch, FIFO) and starts its redelivery timer
at the send; the send takes rtt/2 on the AMQP link; the consumer checks the
message ID (key-in-transaction), works for a log-normal time, commits the
effect and the ID together (a commit that finds the ID recorded meanwhile
changes nothing), frees the slot and acks; one ack in five is lost; an ack
arriving before the timer is success, else the timer sends again at the end
of the broker's queue, at most `tries` sends, then the job is an error.

usage: simpy_model.py JOBS OVER_SECONDS [SEED]  -> one JSON line
"events" counts what the SimPy kernel took from its event queue (each
Environment.step), the same thing sim-core counts."""
import json
import math
import random
import sys
import time

import simpy

# tests/bench/million.yaml
PUBLISH = 0.040 / 2          # users -> broker: http2 rtt 40 ms, request = rtt/2
DELIVER = 0.001 / 2          # broker -> processor: amqp rtt 1 ms
REPLY = 0.001 * 1            # ack: reply_round_trips 1 x rtt
TIMER = 5.0                  # redelivery_after
TRIES = 5
CONCURRENCY = 4
LOSE_REPLY = 0.2
WORK_MU = math.log(0.005)                                   # work_median 5 ms
WORK_SIGMA = (math.log(0.025) - math.log(0.005)) / 2.3263478740408408  # work_p99 25 ms


class CountingEnvironment(simpy.Environment):
    def __init__(self):
        super().__init__()
        self.steps = 0

    def step(self):
        self.steps += 1
        return super().step()


def main():
    jobs = int(sys.argv[1])
    over = float(sys.argv[2])
    rnd = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    env = CountingEnvironment()
    slots = simpy.Resource(env, capacity=CONCURRENCY)
    key = {}
    effects = [0] * jobs
    st = {"deliveries": 0, "errors": 0, "acked": 0}

    def job(j):
        yield env.timeout(PUBLISH)
        for _ in range(TRIES):
            req = slots.request()
            yield req
            deadline = env.now + TIMER
            yield env.timeout(DELIVER)
            st["deliveries"] += 1
            if j not in key:
                yield env.timeout(rnd.lognormvariate(WORK_MU, WORK_SIGMA))
                if j not in key:  # the commit's unique insert
                    effects[j] += 1
                    key[j] = env.now
            slots.release(req)
            if rnd.random() >= LOSE_REPLY and env.now + REPLY < deadline:
                yield env.timeout(REPLY)
                st["acked"] += 1
                return
            yield env.timeout(deadline - env.now)
        st["errors"] += 1

    def arrivals():
        mean = over / jobs
        for j in range(jobs):
            yield env.timeout(rnd.expovariate(1.0 / mean))
            env.process(job(j))

    env.process(arrivals())
    t0 = time.perf_counter()
    env.run()
    s = time.perf_counter() - t0
    dup = sum(e - 1 for e in effects if e > 1)
    print(json.dumps({"jobs": jobs, "events": env.steps, "seconds": round(s, 6),
                      "events_per_s": round(env.steps / s), "deliveries": st["deliveries"],
                      "errors": st["errors"], "duplicates": dup, "acked": st["acked"],
                      "completion_s": round(env.now, 3)}))


if __name__ == "__main__":
    main()
