#!/usr/bin/env python3
"""A GRPO-style group rollout over `srezc serve`.

For each prompt (task, seed) it creates a group of G episodes of the same
task and seed, steps every live episode of every group in one batch per
round with a toy policy (random tool calls over the services the intro
lists, and a guess at the root cause now and then), reads each episode's
return from the grader view, and prints the group-relative advantages
(r - mean) / std a GRPO update would weight each trajectory with.

    python3 clients/python/examples/grpo_rollout.py --url http://127.0.0.1:8080 --grader-token g

A real trainer replaces toy_policy with the model being trained (the
observation text is the prompt, its tool call the action) and feeds the
trajectories and advantages to the loss.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from typing import Any, Dict, List, Optional

try:
    from srezc_client import Client, Reply, SrezcError
except ImportError:  # run from a checkout: clients/python is the package root
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from srezc_client import Client, Reply, SrezcError

LOOK = ["inspect_logs", "inspect_metrics", "check_status", "check_dependencies"]


def services_of(intro: str) -> List[str]:
    """The services the intro lists on its "Services:" line."""
    for line in intro.splitlines():
        if line.startswith("Services:"):
            return line[len("Services:"):].split()
    return []


class ToyPolicy:
    """Looks around at random, restarts a service now and then, and
    resolves naming the service it restarted (or a random one)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.restarted: Dict[str, str] = {}

    def act(self, r: Reply, services: List[str]) -> Dict[str, Any]:
        rng = self.rng
        if r.step >= 1 and (rng.random() < 0.2 or r.steps_left <= 1):
            svc = self.restarted.get(r.episode) or rng.choice(services)
            return {"name": "resolve_incident",
                    "arguments": {"root_cause": "%s: process crashed" % svc, "fix": "restarted %s" % svc}}
        if rng.random() < 0.2:
            svc = rng.choice(services)
            self.restarted[r.episode] = svc
            return {"name": "restart_service", "arguments": {"service": svc}}
        return {"name": rng.choice(LOOK), "arguments": {"service": rng.choice(services)}}


def advantages(returns: List[float]) -> List[float]:
    """Group-relative advantages: (r - mean) / std, 0 for a group whose
    returns are all equal."""
    mean = statistics.fmean(returns)
    std = statistics.pstdev(returns)
    if std < 1e-8:
        return [0.0] * len(returns)
    return [(x - mean) / std for x in returns]


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default=os.environ.get("SREZC_URL", "http://127.0.0.1:8080"))
    ap.add_argument("--grader-token", default=os.environ.get("SREZC_GRADER_TOKEN"))
    ap.add_argument("--api-token", default=os.environ.get("SREZC_API_TOKEN"))
    ap.add_argument("--trainer-token", default=os.environ.get("SREZC_TRAINER_TOKEN"),
                    help="the server's trainer token: groups with ids, so a retried creation is the same group")
    ap.add_argument("--tasks", default="", help="comma-separated task ids or handles (default: the first --n-tasks of the catalogue)")
    ap.add_argument("--n-tasks", type=int, default=3)
    ap.add_argument("--seeds", default="0,1", help="comma-separated seeds; each (task, seed) is a prompt")
    ap.add_argument("--group", type=int, default=8, help="G, episodes per prompt")
    ap.add_argument("--policy-seed", type=int, default=0)
    a = ap.parse_args(argv)
    if not a.grader_token:
        print("grpo_rollout: returns come from the grader view: pass --grader-token (or set SREZC_GRADER_TOKEN)", file=sys.stderr)
        return 2

    client = Client(a.url, api_token=a.api_token, grader_token=a.grader_token, trainer_token=a.trainer_token or None)
    tasks = [t for t in a.tasks.split(",") if t] or [t["handle"] for t in client.tasks()[:a.n_tasks]]
    seeds = [int(s) for s in a.seeds.split(",") if s]
    policy = ToyPolicy(random.Random(a.policy_seed))

    # One group per prompt: G episodes of one task and seed.
    groups: List[List[Reply]] = []
    services: Dict[str, List[str]] = {}
    for task in tasks:
        for seed in seeds:
            g = client.create_group(task, seed, a.group)
            for r in g:
                services[r.episode] = services_of(r.intro or r.observation)
            groups.append(g)

    # Roll out: one batch request per round over every live episode.
    last: Dict[str, Reply] = {r.episode: r for g in groups for r in g}
    rounds = 0
    while True:
        live = [r for r in last.values() if not r.done]
        if not live:
            break
        rounds += 1
        replies = client.step_batch([{"episode": r.episode, "tool": policy.act(r, services[r.episode])} for r in live])
        for r in replies:
            last[r.episode] = r

    print("%-28s %5s %3s %6s %-34s %7s %9s" % ("task", "seed", "k", "steps", "terminal", "return", "advantage"))
    means = []
    try:
        for g in groups:
            finals = [last[r.episode] for r in g]
            returns = [f.grader["return"] for f in finals]
            means.append(statistics.fmean(returns))
            for k, (f, ret, adv) in enumerate(zip(finals, returns, advantages(returns))):
                gv = f.grader
                print("%-28s %5d %3d %6d %-34s %7.3f %+9.3f" % (gv["task"], gv["seed"], k, f.step, gv.get("terminal", ""), ret, adv))
        print("%d prompts x G=%d in %d batched rounds; mean return per group: %s" %
              (len(groups), a.group, rounds, " ".join("%.3f" % m for m in means)))
    finally:
        for ep in last:
            try:
                client.close(ep)
            except SrezcError:
                pass
        client.close_connections()
    return 0


if __name__ == "__main__":
    sys.exit(main())
