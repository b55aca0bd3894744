"""Tests of srezc_client against a live `srezc serve`.

    SREZC_GRADER_TOKEN=g SREZC_TRAINER_TOKEN=t SREZC_TOKEN_KEY=0123456789abcdef0123456789abcdef srezc serve --addr 127.0.0.1:8080 &
    SREZC_URL=http://127.0.0.1:8080 SREZC_GRADER_TOKEN=g SREZC_TRAINER_TOKEN=t python3 -m unittest discover -s clients/python/tests -v

Without SREZC_URL every test skips; without SREZC_GRADER_TOKEN the tests
that read rewards skip. .ci/run starts a server and runs them.
"""

from __future__ import annotations

import collections
import http.client
import http.server
import json
import os
import subprocess
import sys
import threading
import unittest
from typing import Any, Deque, Dict, List
from urllib.parse import urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)  # clients/python
sys.path.insert(0, ROOT)

from srezc_client import Client, SrezcEnv, SrezcError, episode_end  # noqa: E402

URL = os.environ.get("SREZC_URL", "")
GRADER = os.environ.get("SREZC_GRADER_TOKEN", "")
API = os.environ.get("SREZC_API_TOKEN") or None
TRAINER = os.environ.get("SREZC_TRAINER_TOKEN") or None

# db_crash's fix, the slot named as list_replication_slots(database) shows
# it, with a check of the database before resolving; step 2 as a
# structured tool call, the others as text actions.
PLAN: List[Any] = [
    "inspect_logs(database)",
    {"name": "drop_replication_slot", "arguments": {"service": "database", "slot": "analytics_cdc"}},
    "check_status(database)",
    'resolve_incident("database: replication slot retains wal", "dropped the replication slot on database")',
]


def act(c: Client, ep: str, a: Any, **kw: Any):
    return c.step(ep, action=a, **kw) if isinstance(a, str) else c.step(ep, tool=a, **kw)


class SetupTest(unittest.TestCase):
    def test_server_given_in_ci(self) -> None:
        # Like the Go tests that need an installed tool: skip outside CI,
        # fail in it.
        if os.environ.get("CI") and not (URL and GRADER and TRAINER):
            self.fail("CI is set but SREZC_URL, SREZC_GRADER_TOKEN or SREZC_TRAINER_TOKEN is not: .ci/run starts srezc serve and sets them")


@unittest.skipUnless(URL, "SREZC_URL is unset: start `srezc serve` and set SREZC_URL (and SREZC_GRADER_TOKEN) to run these")
class ClientTest(unittest.TestCase):
    def client(self, grader: bool = True, trainer: bool = True, **kw: Any) -> Client:
        c = Client(kw.pop("url", URL), api_token=API, grader_token=(GRADER or None) if grader else None,
                   trainer_token=TRAINER if trainer else None, **kw)
        self.addCleanup(c.close_connections)
        return c

    def create(self, c: Client, **kw: Any):
        r = c.create(**kw)
        self.addCleanup(self.client(grader=False).close, r.episode)
        return r

    def need_grader(self) -> None:
        if not GRADER:
            self.skipTest("SREZC_GRADER_TOKEN is unset: rewards need the grader view")

    def test_info_and_catalogue(self) -> None:
        c = self.client()
        info = c.info()
        tasks = c.tasks()
        self.assertEqual(info["tasks"], len(tasks))
        if GRADER:
            self.assertTrue(info["grader_view"])
        for t in tasks:
            self.assertEqual(set(t), {"handle", "alert", "services", "budget", "tools"})
        names = [t["function"]["name"] for t in c.tools("db_crash")]
        self.assertIn("inspect_logs", names)
        self.assertIn("resolve_incident", names)
        with self.assertRaises(SrezcError) as e:
            c.tools("no_such_task")
        self.assertEqual(e.exception.status, 404)

    def test_plan_reaches_success(self) -> None:
        self.need_grader()
        c = self.client()
        for seed in (0, 3):
            r = self.create(c, task="db_crash", seed=seed)
            self.assertEqual((r.step, r.done), (0, False))
            self.assertIn("Services:", r.intro)
            budget, total = r.steps_left, 0.0
            for i, a in enumerate(PLAN, 1):
                r = act(c, r.episode, a)
                self.assertEqual((r.step, r.steps_left), (i, budget - i))
                self.assertEqual(r.done, i == len(PLAN))
                self.assertEqual(c.state(r.episode), (i, r.token))
                total += r.reward
            g = r.grader
            self.assertEqual(g["task"], "db_crash")
            self.assertEqual(g["terminal"], "resolved")
            self.assertTrue(g["record"]["success"])
            self.assertAlmostEqual(g["return"], total, places=6)
            self.assertEqual(g["actions"][1], 'drop_replication_slot("database", "analytics_cdc")')
            self.assertTrue(c.grader(r.episode)["record"]["success"])
            with self.assertRaises(SrezcError) as e:
                c.step(r.episode, action="check_status(database)")
            self.assertEqual(e.exception.status, 409)

    def test_retried_step_same_reply(self) -> None:
        c = self.client()
        r0 = self.create(c, task="db_crash", seed=11)
        r1 = c.step(r0.episode, action="inspect_logs(database)")
        again = c.step(r0.episode, action="inspect_logs(database)", step=1)
        self.assertEqual((again.step, again.observation, again.content), (r1.step, r1.observation, r1.content))
        with self.assertRaises(SrezcError) as e:  # step 1 again, another action
            c.step(r0.episode, action="check_status(cache)", step=1)
        self.assertEqual(e.exception.status, 409)
        self.assertEqual(c.step(r0.episode, action="check_status(cache)").step, 2)

    def test_gap_is_409(self) -> None:
        c = self.client()
        r = self.create(c, task="db_crash", seed=1)
        with self.assertRaises(SrezcError) as e:
            c.step(r.episode, action="check_status(cache)", step=3)
        self.assertEqual(e.exception.status, 409)
        self.assertEqual(c.step(r.episode, action="check_status(cache)").step, 1)

    def test_unknown_episode_404(self) -> None:
        c = self.client()
        for call in (lambda: c.observe("py-no-such-episode"), lambda: c.step("py-no-such-episode", action="x()", step=1)):
            with self.assertRaises(SrezcError) as e:
                call()
            self.assertEqual(e.exception.status, 404)
        self.assertFalse(c.close("py-no-such-episode"))

    def test_group_identical(self) -> None:
        c = self.client()
        g = c.create_group("db_crash", 7, 4)
        for r in g:
            self.addCleanup(c.close, r.episode)
        self.assertEqual(len({r.episode for r in g}), 4)
        self.assertEqual(len({r.intro for r in g}), 1)
        first = c.step_batch([(r.episode, "inspect_metrics(database)") for r in g])
        self.assertEqual([r.step for r in first], [1] * 4)
        self.assertEqual(len({(r.observation, json.dumps(r.content, sort_keys=True)) for r in first}), 1)
        second = c.step_batch([{"episode": r.episode, "tool": ("inspect_logs", {"service": "web_server"})} for r in g])
        self.assertEqual(len({r.observation for r in second}), 1)
        # A batch item that fails comes back as its error.
        out = c.step_batch([{"episode": g[0].episode, "action": "check_status(cache)", "step": 9},
                            (g[1].episode, "check_status(cache)")], raise_errors=False)
        self.assertIsInstance(out[0], SrezcError)
        self.assertEqual(out[0].status, 409)
        self.assertEqual(out[1].step, 3)
        # A same-id group again is the same episodes.
        gid = g[0].episode[:-2]
        self.assertEqual([r.step for r in c.create_group("db_crash", 7, 4, id=gid)], [2, 3, 2, 2])

    def test_token_resume_after_close(self) -> None:
        c = self.client()
        r = self.create(c, task="db_crash", seed=5)
        ref = self.create(c, task="db_crash", seed=5)
        for a in PLAN[:2]:
            act(c, r.episode, a)
            act(c, ref.episode, a)
        other = self.client()  # another process, or replica: no tracked token
        self.assertTrue(other.close(r.episode))
        with self.assertRaises(SrezcError) as e:
            other.observe(r.episode)
        self.assertEqual(e.exception.status, 404)
        got = act(c, r.episode, PLAN[2])  # the tracked token takes it up
        want = act(c, ref.episode, PLAN[2])
        self.assertEqual((got.step, got.observation), (3, want.observation))
        self.assertEqual(other.resume(r.episode, got.token).step, 3)
        if GRADER:
            self.assertEqual(c.grader(r.episode)["actions"], c.grader(ref.episode)["actions"])

    def test_fork(self) -> None:
        c = self.client()
        r = self.create(c, task="db_crash", seed=2)
        a1 = c.step(r.episode, action="check_status(cache)")
        a2 = c.step(r.episode, action="inspect_logs(database)")
        f = c.fork(r.episode, at=1)
        self.addCleanup(c.close, f.episode)
        self.assertEqual((f.step, f.observation), (1, a1.observation))
        self.assertEqual(c.step(f.episode, action="inspect_logs(database)").observation, a2.observation)
        self.assertEqual(c.state(r.episode)[0], 2)

    def test_env_terminated(self) -> None:
        self.need_grader()
        env = SrezcEnv(URL, task="db_crash", api_token=API, grader_token=GRADER, trainer_token=TRAINER)
        self.addCleanup(env.close)
        obs, info = env.reset(seed=4)
        self.assertIn("Services:", obs)
        self.assertEqual((info["step"], info["steps_left"]), (0, 8))
        self.assertIn("grader", info)
        total = 0.0
        for i, a in enumerate(PLAN, 1):
            obs, reward, terminated, truncated, info = env.step(a)
            self.assertIsInstance(reward, float)
            total += reward
            self.assertEqual((terminated, truncated), (i == len(PLAN), False))
            self.assertEqual(info["step"], i)
            self.assertTrue(info["token"])
        self.assertEqual(info["grader"]["terminal"], "resolved")
        self.assertAlmostEqual(total, info["grader"]["return"], places=6)
        with self.assertRaises(SrezcError):
            env.step("check_status(database)")
        # reset closes the last episode and starts another.
        old = env.episode
        env.reset(seed=4, options={"split": "train"})
        self.assertNotEqual(env.episode, old)
        self.assertEqual(env.last.grader["split"], "train")
        with self.assertRaises(SrezcError) as e:
            self.client().observe(old)
        self.assertEqual(e.exception.status, 404)

    def test_env_truncated(self) -> None:
        self.need_grader()
        env = SrezcEnv(self.client(), task="db_crash")
        self.addCleanup(env.close)
        _, info = env.reset(seed=4)
        budget = info["steps_left"]
        for i in range(1, budget + 1):
            _, reward, terminated, truncated, info = env.step("check_status(cache)")
            self.assertIsInstance(reward, float)
            self.assertFalse(terminated)
            self.assertEqual(truncated, i == budget)
        self.assertEqual(info["steps_left"], 0)
        self.assertEqual(info["grader"]["terminal"], "step_budget_exhausted")

    def test_env_without_grader(self) -> None:
        env = SrezcEnv(URL, task="db_crash", api_token=API, trainer_token=TRAINER)
        self.addCleanup(env.close)
        _, info = env.reset(seed=4)
        self.assertNotIn("grader", info)
        for i, a in enumerate(PLAN, 1):
            _, reward, terminated, truncated, info = env.step(a)
            self.assertIsNone(reward)
            self.assertEqual((terminated, truncated), (i == len(PLAN), False))
        _, info = env.reset(seed=4)
        out = None
        for _ in range(info["steps_left"]):
            out = env.step(("check_status", {"service": "cache"}))
        self.assertEqual(out[1:4], (None, False, True))
        self.assertEqual(episode_end(env.last), (False, True))

    def test_agent_only_steps_forward(self) -> None:
        # Without the trainer token: no replay token, no fork or close, no
        # author ids; the server draws the episode id.
        agent = self.client(grader=False, trainer=False)
        r = agent.create(split="train", seed=3)
        self.assertEqual(r.token, "")
        self.assertTrue(r.episode.startswith("ep-"))
        s = agent.step(r.episode, action="check_status(cache)")
        self.assertEqual((s.step, s.token), (1, ""))
        for call in (lambda: agent.fork(r.episode, at=0), lambda: agent.close(r.episode),
                     lambda: agent.create(task="db_crash")):
            with self.assertRaises(SrezcError) as e:
                call()
            self.assertIn(e.exception.status, (400, 403))
        handle = agent.tasks()[0]["handle"]
        self.assertEqual(agent.create(task=handle).step, 0)
        env = SrezcEnv(URL, split="train", api_token=API)
        self.addCleanup(env.close)
        _, info = env.reset(seed=5)
        self.assertNotIn("token", {k: v for k, v in info.items() if v})
        env.step("check_status(cache)")
        env.reset(seed=6)  # an agent's reset leaves the last episode to its lease

    def test_retries_through_faults(self) -> None:
        proxy = FaultyProxy(URL)
        self.addCleanup(proxy.stop)
        c = self.client(url=proxy.url, backoff=0.01, max_backoff=0.05)
        direct = self.client()
        # Creation: a 503 (Retry-After: 0), then a reply lost after the
        # episode was made; the client's id makes the retry the same one.
        proxy.fault("create", "503", "drop")
        r = c.create(task="db_crash", seed=8)
        self.addCleanup(direct.close, r.episode)
        self.assertEqual(r.step, 0)
        # A step applied and its reply lost, then a 429: played once.
        proxy.fault("step", "drop", "429")
        s = c.step(r.episode, action="inspect_logs(database)")
        self.assertEqual(s.step, 1)
        self.assertEqual(direct.observe(r.episode).step, 1)
        # A batch reply lost: the retry gives the same replies.
        proxy.fault("batch", "drop")
        (b,) = c.step_batch([(r.episode, "check_status(cache)")])
        self.assertEqual(b.step, 2)
        self.assertEqual(direct.observe(r.episode).step, 2)
        self.assertEqual(proxy.seen["step"], 3)
        # Out of retries: the last status raises.
        few = self.client(url=proxy.url, retries=1, backoff=0.01)
        proxy.fault("step", "503", "503")
        with self.assertRaises(SrezcError) as e:
            few.step(r.episode, action="check_status(cache)", step=3, token=s.token)
        self.assertEqual((e.exception.status, e.exception.attempts), (503, 2))
        proxy.fault("step", "drop", "drop")
        with self.assertRaises(SrezcError) as e:
            few.step(r.episode, action="check_status(cache)", step=3)
        self.assertEqual(e.exception.status, 0)
        self.assertEqual(direct.observe(r.episode).step, 3)

    def test_example_runs(self) -> None:
        self.need_grader()
        script = os.path.join(ROOT, "examples", "grpo_rollout.py")
        cmd = [sys.executable, script, "--url", URL, "--grader-token", GRADER, "--trainer-token", TRAINER or "", "--n-tasks", "2",
               "--seeds", "0,1", "--group", "4"]
        if API:
            cmd += ["--api-token", API]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertIn("advantage", lines[0])
        self.assertEqual(len(lines), 1 + 2 * 2 * 4 + 1)
        for k in range(4):  # advantages of a group sum to 0
            advs = [float(l.split()[-1]) for l in lines[1 + 4 * k:5 + 4 * k]]
            self.assertAlmostEqual(sum(advs), 0.0, places=2)


class FaultyProxy:
    """A keep-alive HTTP proxy in front of the server that injects faults
    into the next requests of a kind (create, step, batch): "503" and
    "429" answer that status with Retry-After: 0 without forwarding;
    "drop" forwards the request, then closes the connection without the
    reply."""

    def __init__(self, upstream: str):
        u = urlsplit(upstream)
        self.up_host, self.up_port = u.hostname, u.port
        self.faults: Dict[str, Deque[str]] = collections.defaultdict(collections.deque)
        self.seen: Dict[str, int] = collections.Counter()
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a: Any) -> None:
                pass

            def relay(self) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else None
                kind = proxy.kind(self.command, self.path)
                with proxy.lock:
                    proxy.seen[kind] += 1
                    fault = proxy.faults[kind].popleft() if proxy.faults[kind] else ""
                if fault in ("503", "429"):
                    data = json.dumps({"error": {"status": int(fault), "message": "injected"}}).encode()
                    self.send_response(int(fault))
                    self.send_header("Retry-After", "0")
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                up = http.client.HTTPConnection(proxy.up_host, proxy.up_port, timeout=30)
                hdrs = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                up.request(self.command, self.path, body=body, headers=hdrs)
                resp = up.getresponse()
                data = resp.read()
                up.close()
                if fault == "drop":
                    self.close_connection = True
                    return
                self.send_response(resp.status)
                for k, v in resp.getheaders():
                    if k.lower() not in ("connection", "transfer-encoding", "date", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = relay

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @staticmethod
    def kind(method: str, path: str) -> str:
        if method == "POST" and path == "/v1/episodes":
            return "create"
        if method == "POST" and path.endswith("/step"):
            return "step"
        if path == "/v1/batch/steps":
            return "batch"
        return "other"

    def fault(self, kind: str, *faults: str) -> None:
        with self.lock:
            self.faults[kind].extend(faults)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


if __name__ == "__main__":
    unittest.main()
