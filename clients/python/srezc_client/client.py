"""A client for `srezc serve`'s JSON HTTP API (standard library only).

One Client keeps one keep-alive connection per thread, tracks each
episode's step index and retries connection errors, 5xx and 429
(honouring Retry-After). Retrying a step is safe: a step names its index
and a retry of the step just taken returns the same reply.

With the trainer token (X-Srezc-Trainer-Token, the server's
SREZC_TRAINER_TOKEN) the client is a trainer's: it tracks each episode's
latest replay token and sends it with every step (so any replica sharing
the token key can serve it), may fork, close and name tasks by author id,
and creations carry a client-drawn id, so a retried creation returns the
same episode. Without it the client is an agent's: it only steps forward,
names tasks by handle (catalogue()) or split, and the server draws ids.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union
from urllib.parse import quote, urlencode, urlsplit

__all__ = ["Client", "Reply", "SrezcError", "RETRYABLE"]

#: Statuses a request is retried on: capacity (429) and server or proxy
#: failures (5xx).
RETRYABLE = frozenset({429, 500, 502, 503, 504})

_MAX_SEED = 1 << 64


class SrezcError(Exception):
    """An error reply of the server (status is its HTTP status), or a
    request that could not be made (status 0) after the retries.
    `attempts` counts the requests sent."""

    def __init__(self, status: int, message: str, retry_after: Optional[float] = None, attempts: int = 1):
        super().__init__("srezc: %d: %s" % (status, message) if status else "srezc: " + message)
        self.status = status
        self.message = message
        self.retry_after = retry_after
        self.attempts = attempts


@dataclass
class Reply:
    """An episode reply: what the agent sees, the replay token and, for a
    client with the grader token, the grader's view (a dict with task,
    hash, difficulty, split, seed, reward, return, components, terminal,
    record and actions)."""

    episode: str
    step: int
    steps_left: int
    done: bool
    observation: str
    token: str
    intro: Optional[str] = None
    content: Any = None
    grader: Optional[Dict[str, Any]] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Reply":
        return cls(episode=d["episode"], step=d["step"], steps_left=d["steps_left"], done=d.get("done", False),
                   observation=d.get("observation", ""), token=d.get("token", ""), intro=d.get("intro"),
                   content=d.get("content"), grader=d.get("grader"), raw=dict(d))

    @property
    def reward(self) -> Optional[float]:
        """The last step's reward (grader view only, else None)."""
        if not self.grader or self.grader.get("reward") is None:
            return None
        return float(self.grader["reward"])

    @property
    def terminal(self) -> Optional[str]:
        """How the episode ended (grader view only): resolved,
        premature_or_incorrect_resolution, escalated or
        step_budget_exhausted; None while it runs or without the grader."""
        return self.grader.get("terminal") if self.grader else None


Action = Union[str, None]
Tool = Union[Mapping[str, Any], Tuple[str, Any], None]


def tool_call(tool: Any) -> Dict[str, Any]:
    """A structured tool call as the server takes it, from {"name",
    "arguments"}, an OpenAI tool call {"function": {"name", "arguments"}}
    or a (name, arguments) pair; arguments may be a dict or a JSON string."""
    if isinstance(tool, (tuple, list)) and len(tool) == 2:
        name, args = tool
    elif isinstance(tool, Mapping):
        fn = tool.get("function", tool)
        name, args = fn.get("name"), fn.get("arguments")
    else:
        raise TypeError("a tool call is {'name', 'arguments'}, an OpenAI tool call or a (name, arguments) pair")
    if not name:
        raise ValueError("a tool call needs a name")
    if isinstance(args, (str, bytes)):
        args = json.loads(args) if args.strip() else None
    call: Dict[str, Any] = {"name": name}
    if args is not None:
        call["arguments"] = args
    return call


class Client:
    """A client of one srezc server (or a load balancer over replicas).

    Safe to share between threads: each thread gets its own connection.
    """

    def __init__(self, base_url: str, api_token: Optional[str] = None, grader_token: Optional[str] = None,
                 trainer_token: Optional[str] = None, timeout: float = 30.0, retries: int = 5, backoff: float = 0.2, max_backoff: float = 10.0,
                 max_retry_after: float = 60.0):
        u = urlsplit(base_url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError("base_url must be http(s)://HOST[:PORT][/PREFIX], not %r" % base_url)
        self.base_url = base_url.rstrip("/")
        self._https = u.scheme == "https"
        self._host = u.hostname
        self._port = u.port
        self._prefix = u.path.rstrip("/")
        self.api_token = api_token
        self.grader_token = grader_token
        self.trainer_token = trainer_token
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retry_after = max_retry_after
        self._local = threading.local()
        self._lock = threading.Lock()
        self._episodes: Dict[str, Tuple[int, str]] = {}

    # -- transport -------------------------------------------------------

    def _conn(self) -> http.client.HTTPConnection:
        c = getattr(self._local, "conn", None)
        if c is None:
            cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            c = cls(self._host, self._port, timeout=self.timeout)
            self._local.conn = c
        return c

    def _drop(self) -> None:
        c = getattr(self._local, "conn", None)
        self._local.conn = None
        if c is not None:
            c.close()

    def _sleep(self, attempt: int, retry_after: Optional[float]) -> None:
        if retry_after is not None:
            delay = min(retry_after, self.max_retry_after)
        else:
            delay = min(self.max_backoff, self.backoff * (2 ** attempt)) * (0.5 + random.random() / 2)
        if delay > 0:
            time.sleep(delay)

    def _request(self, method: str, path: str, body: Any = None, query: Optional[Mapping[str, str]] = None) -> Any:
        """Sends a request, retrying transport errors and RETRYABLE statuses;
        returns the decoded body or raises SrezcError."""
        url = self._prefix + path
        if query:
            q = {k: v for k, v in query.items() if v}
            if q:
                url += "?" + urlencode(q)
        data = None if body is None else json.dumps(body, separators=(",", ":")).encode()
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if self.api_token:
            headers["Authorization"] = "Bearer " + self.api_token
        if self.grader_token:
            headers["X-Srezc-Grader-Token"] = self.grader_token
        if self.trainer_token:
            headers["X-Srezc-Trainer-Token"] = self.trainer_token
        attempt = 0
        while True:
            attempt += 1
            last = attempt > self.retries
            reused = getattr(self._local, "conn", None) is not None
            try:
                conn = self._conn()
                conn.request(method, url, body=data, headers=headers)
                resp = conn.getresponse()
                raw = resp.read()
                status = resp.status
                retry_after = _retry_after(resp.getheader("Retry-After"))
                if resp.will_close:
                    self._drop()
            except (OSError, http.client.HTTPException) as e:
                self._drop()
                if last:
                    raise SrezcError(0, "%s %s%s: %s" % (method, self.base_url, path, e or type(e).__name__),
                                     attempts=attempt) from e
                if not (reused and attempt == 1):  # a kept-alive connection the server closed: at once
                    self._sleep(attempt - 1, None)
                continue
            try:
                doc = json.loads(raw) if raw else None
            except ValueError:
                doc = None
            if status in RETRYABLE and not last:
                self._sleep(attempt - 1, retry_after)
                continue
            if status >= 400:
                msg = raw.decode("utf-8", "replace").strip()[:500]
                if isinstance(doc, dict) and isinstance(doc.get("error"), dict):
                    msg = doc["error"].get("message", msg)
                raise SrezcError(status, msg or http.client.responses.get(status, "error"), retry_after, attempt)
            if doc is None:
                raise SrezcError(status, "the reply is not JSON: %r" % raw[:200], attempts=attempt)
            return doc

    def close_connections(self) -> None:
        """Closes this thread's connection (others close when their threads
        end)."""
        self._drop()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close_connections()

    # -- episode tracking -------------------------------------------------

    def _track(self, r: Reply) -> Reply:
        with self._lock:
            self._episodes[r.episode] = (r.step, r.token)
        return r

    def state(self, episode: str) -> Optional[Tuple[int, str]]:
        """The (step, token) this client holds for an episode, or None."""
        with self._lock:
            return self._episodes.get(episode)

    def track(self, episode: str, step: int, token: str) -> None:
        """Adopts an episode played elsewhere (another process or actor),
        at step `step` with its latest token."""
        with self._lock:
            self._episodes[episode] = (step, token)

    def forget(self, episode: str) -> None:
        """Drops an episode from the client's tracking (the server keeps it)."""
        with self._lock:
            self._episodes.pop(episode, None)

    # -- catalogue ----------------------------------------------------------

    def info(self) -> Dict[str, Any]:
        """GET /v1/info: versions, suite hash, task count, whether the
        grader view is on, TTL and capacity."""
        return self._request("GET", "/v1/info")

    def tasks(self) -> List[Dict[str, Any]]:
        """The agent-visible catalogue: handle, alert, services, budget,
        tools of each task."""
        return self._request("GET", "/v1/tasks")["tasks"]

    def tools(self, task: str) -> List[Dict[str, Any]]:
        """A task's tools as OpenAI function schemas."""
        return self._request("GET", "/v1/tasks/%s/tools" % _seg(task))["tools"]

    def grader_tasks(self) -> List[Dict[str, Any]]:
        """The grader's catalogue (ids, difficulty, split, optimum; needs
        the grader token)."""
        return self._request("GET", "/v1/grader/tasks")["tasks"]

    # -- episodes ------------------------------------------------------------

    def create(self, task: Optional[str] = None, split: Optional[str] = None, seed: int = 0,
               id: Optional[str] = None) -> Reply:
        """Creates an episode of a task (a handle; for a trainer also an id
        or hash) or of a split (the seed picks the task). A trainer's client
        draws an id when none is given, so a retried creation is the same
        episode; an agent's gets the server's."""
        body = _create_body(task, split, seed, id or self._drawn_id())
        return self._track(Reply.from_json(self._request("POST", "/v1/episodes", body)))

    def create_batch(self, specs: Iterable[Mapping[str, Any]]) -> List[Reply]:
        """Creates several episodes at once, each spec a dict of create()'s
        arguments (task or split, seed, id)."""
        reqs = [_create_body(s.get("task"), s.get("split"), s.get("seed", 0), s.get("id") or self._drawn_id()) for s in specs]
        return self._batch_create({"episodes": reqs})

    def create_group(self, task: str, seed: int, count: int, id: Optional[str] = None) -> List[Reply]:
        """Creates `count` episodes of one task and seed (a GRPO group),
        with ids ID-0 ... ID-(count-1)."""
        g = _create_body(task, None, seed, id or self._drawn_id())
        g["count"] = count
        return self._batch_create({"group": g})

    def _drawn_id(self) -> Optional[str]:
        # Choosing an id is the trainer's; an agent's episodes get the
        # server's ids.
        return _new_id() if self.trainer_token else None

    def _batch_create(self, body: Dict[str, Any]) -> List[Reply]:
        # Every item has an id, so sending the whole batch again is safe:
        # the episodes that exist come back as they are.
        for attempt in range(self.retries + 1):
            items = self._request("POST", "/v1/batch/episodes", body)["episodes"]
            bad = [it for it in items if it["status"] >= 400]
            if not bad:
                return [self._track(Reply.from_json(it["reply"])) for it in items]
            if attempt < self.retries and all(it["status"] in RETRYABLE for it in bad):
                self._sleep(attempt, None)
                continue
            for it in items:
                if it.get("reply"):
                    self._track(Reply.from_json(it["reply"]))
            raise SrezcError(bad[0]["status"], bad[0].get("error") or "", attempts=attempt + 1)
        raise AssertionError("unreachable")

    def _step_body(self, episode: str, action: Action, tool: Tool, step: Optional[int],
                   token: Optional[str]) -> Dict[str, Any]:
        if (action is None) == (tool is None):
            raise ValueError("give an action (text) or a tool call, not both or neither")
        held = self.state(episode)
        if step is None:
            if held is None:
                r = self.observe(episode, token=token)
                held = (r.step, r.token)
            step = held[0] + 1
        if token is None and held is not None and held[1]:
            token = held[1]
        body: Dict[str, Any] = {"step": step}
        if action is not None:
            body["action"] = action
        else:
            body["tool"] = tool_call(tool)
        if token:
            body["token"] = token
        return body

    def step(self, episode: str, action: Action = None, tool: Tool = None, step: Optional[int] = None,
             token: Optional[str] = None) -> Reply:
        """Takes one step: a text action ("inspect_logs(database)") or a
        tool call ({"name": "inspect_logs", "arguments": {"service":
        "database"}}). `step` is the 1-based index of the step to take; by
        default the one after the client's tracked step (observing the
        episode first if the client does not know it). Giving the index of
        the step just taken returns its reply again."""
        body = self._step_body(episode, action, tool, step, token)
        return self._track(Reply.from_json(self._request("POST", "/v1/episodes/%s/step" % _seg(episode), body)))

    def step_batch(self, steps: Sequence[Any], raise_errors: bool = True) -> List[Union[Reply, SrezcError]]:
        """Takes one step in each of several episodes in one request. Each
        item is a dict {"episode", "action" | "tool", "step"?, "token"?} or
        an (episode, action) pair, where action is a text or a tool call.
        One step per episode per batch. Items refused for capacity or a
        server error are sent again. Returns
        the replies in order; with raise_errors=False a failed item is its
        SrezcError, else the first failure raises (after the others are
        tracked)."""
        bodies = []
        seen = set()
        for it in steps:
            if isinstance(it, (tuple, list)):
                ep, act = it
                it = {"episode": ep, ("action" if isinstance(act, str) else "tool"): act}
            b = self._step_body(it["episode"], it.get("action"), it.get("tool"), it.get("step"), it.get("token"))
            if it["episode"] in seen:
                raise ValueError("episode %s appears twice in one batch (one step per episode)" % it["episode"])
            seen.add(it["episode"])
            b["episode"] = it["episode"]
            bodies.append(b)
        out: List[Union[Reply, SrezcError, None]] = [None] * len(bodies)
        todo = list(range(len(bodies)))
        attempt = 0
        while todo:
            res = self._request("POST", "/v1/batch/steps", {"steps": [bodies[i] for i in todo]})["results"]
            again = []
            for i, it in zip(todo, res):
                if it["status"] < 400:
                    out[i] = self._track(Reply.from_json(it["reply"]))
                elif it["status"] in RETRYABLE and attempt < self.retries:
                    again.append(i)
                else:
                    out[i] = SrezcError(it["status"], it.get("error") or "", attempts=attempt + 1)
            todo = again
            if todo:
                self._sleep(attempt, None)
                attempt += 1
        if raise_errors:
            for r in out:
                if isinstance(r, SrezcError):
                    raise r
        return out  # type: ignore[return-value]

    def observe(self, episode: str, token: Optional[str] = None) -> Reply:
        """The episode's current reply (its last observation). With a token
        (by default the tracked one) a replica that does not hold the
        episode takes it up."""
        if token is None:
            held = self.state(episode)
            token = held[1] if held else None
        return self._track(Reply.from_json(self._request("GET", "/v1/episodes/%s" % _seg(episode),
                                                         query={"token": token or ""})))

    def resume(self, episode: str, token: str) -> Reply:
        """Takes up an episode from its replay token (from another process,
        or after the server dropped it) and tracks it."""
        return self.observe(episode, token=token)

    def fork(self, episode: str, at: Optional[int] = None, id: Optional[str] = None,
             token: Optional[str] = None) -> Reply:
        """A new episode continuing this one from step `at` (default: where
        it is now), from the tracked token so any replica can fork it."""
        if token is None:
            held = self.state(episode)
            token = held[1] if held else None
        new_id = id or _new_id()
        body: Dict[str, Any] = {"id": new_id}
        if at is not None:
            body["at"] = at
        if token:
            body["token"] = token
        try:
            doc = self._request("POST", "/v1/episodes/%s/fork" % _seg(episode), body)
        except SrezcError as e:
            if e.status == 409 and e.attempts > 1:
                # A retry of a fork that was made: the new episode exists.
                return self.observe(new_id)
            raise
        return self._track(Reply.from_json(doc))

    def close(self, episode: str) -> bool:
        """Closes an episode (frees its lease) and forgets it. Returns
        False when the server did not hold it (expired, closed, or held by
        another replica)."""
        self.forget(episode)
        try:
            self._request("DELETE", "/v1/episodes/%s" % _seg(episode))
        except SrezcError as e:
            if e.status == 404:
                return False
            raise
        return True

    def grader(self, episode: str, token: Optional[str] = None) -> Dict[str, Any]:
        """The grader's view of an episode: task, difficulty, split, seed,
        last reward, return, components, terminal, record (when done),
        actions. Needs the grader token."""
        if token is None:
            held = self.state(episode)
            token = held[1] if held else None
        return self._request("GET", "/v1/grader/episodes/%s" % _seg(episode), query={"token": token or ""})


def _create_body(task: Optional[str], split: Optional[str], seed: int, id: Optional[str]) -> Dict[str, Any]:
    if (task is None) == (split is None):
        raise ValueError("give a task or a split, not both or neither")
    if not isinstance(seed, int) or not 0 <= seed < _MAX_SEED:
        raise ValueError("seed must be an integer in [0, 2**64)")
    body: Dict[str, Any] = {"seed": seed}
    if task is not None:
        body["task"] = task
    else:
        body["split"] = split
    if id:
        body["id"] = id
    return body


def _new_id() -> str:
    return "py-" + uuid.uuid4().hex


def _seg(s: str) -> str:
    return quote(s, safe="")


def _retry_after(v: Optional[str]) -> Optional[float]:
    if not v:
        return None
    try:
        return max(0.0, float(v))
    except ValueError:
        return None  # an HTTP date: fall back to the backoff
