"""A Gymnasium-style environment over `srezc serve` (no gymnasium import:
the same method shapes, so it drops into code written for gymnasium.Env).

Observations are the texts an agent sees; actions are text actions
("inspect_logs(database)") or tool calls ({"name", "arguments"}).

Rewards come from the grader view only: with a grader token, reward is
the step's reward (its sum over an episode is the return); without one,
reward is None. An evaluated agent never gets rewards; a trainer does.
"""

from __future__ import annotations

import random
from typing import Any, Dict, Optional, Tuple, Union

from .client import Client, Reply

__all__ = ["SrezcEnv", "episode_end"]

_ENDING_TOOLS = ("resolve_incident", "escalate")


def episode_end(r: Reply) -> Tuple[bool, bool]:
    """(terminated, truncated) for a reply: terminated when the agent ended
    the episode (resolve_incident or escalate), truncated when the step
    budget ran out (the grader's terminal "step_budget_exhausted"). Without
    the grader view, a done episode whose last action was not a valid
    resolve_incident or escalate call counts as truncated."""
    if not r.done:
        return False, False
    if r.grader and r.grader.get("terminal"):
        t = r.grader["terminal"]
        return t != "step_budget_exhausted", t == "step_budget_exhausted"
    c = r.content if isinstance(r.content, dict) else {}
    if c.get("tool") in _ENDING_TOOLS and not c.get("error"):
        return True, False
    return False, True


class SrezcEnv:
    """One episode at a time over a srezc server.

    env = SrezcEnv("http://127.0.0.1:8080", task="db_crash", grader_token="g", trainer_token="t")
    obs, info = env.reset(seed=3)
    obs, reward, terminated, truncated, info = env.step("inspect_logs(database)")

    reset's options may name {"task": ...} or {"split": ...} (and an "id")
    for that episode. info carries episode, step, steps_left, token (with
    the trainer token), the structured observation (content) and, with the
    grader token, grader. Naming a task by its id, and closing episodes,
    need the trainer token; an agent names a handle or a split.
    """

    metadata: Dict[str, Any] = {"render_modes": []}

    def __init__(self, client: Union[Client, str], task: Optional[str] = None, split: Optional[str] = None,
                 *, api_token: Optional[str] = None, grader_token: Optional[str] = None,
                 trainer_token: Optional[str] = None, timeout: float = 30.0, close_on_reset: bool = True):
        if isinstance(client, Client):
            self.client, self._owns = client, False
        else:
            self.client = Client(client, api_token=api_token, grader_token=grader_token, trainer_token=trainer_token,
                                 timeout=timeout)
            self._owns = True
        self.task, self.split = task, split
        self.close_on_reset = close_on_reset
        self.episode: Optional[str] = None
        self.last: Optional[Reply] = None
        self._rng = random.Random()

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[str, Dict[str, Any]]:
        """Starts an episode (closing the previous one) and returns the
        first observation (the alert, services, budget and tools) and info.
        Without a seed, one is drawn from the environment's generator."""
        options = dict(options or {})
        task, split = options.pop("task", None), options.pop("split", None)
        ep_id = options.pop("id", None)
        if options:
            raise ValueError("unknown reset options: %s (task, split, id)" % ", ".join(sorted(options)))
        if task is None and split is None:
            task, split = self.task, self.split
        if seed is None:
            seed = self._rng.getrandbits(63)
        else:
            self._rng.seed(seed)
        if self.episode is not None and self.close_on_reset and self.client.trainer_token:
            # Closing is the trainer's; an agent's episode keeps its lease
            # until it runs out.
            self.client.close(self.episode)
        r = self.client.create(task=task, split=split, seed=seed, id=ep_id)
        self.episode, self.last = r.episode, r
        return r.observation, self._info(r)

    def step(self, action: Any) -> Tuple[str, Optional[float], bool, bool, Dict[str, Any]]:
        """Plays one action: a text action, or a tool call (a dict {"name",
        "arguments"}, an OpenAI tool call or a (name, arguments) pair).
        Returns (observation, reward, terminated, truncated, info); reward
        is None without the grader token. Stepping an ended episode raises
        SrezcError 409."""
        if self.episode is None:
            raise RuntimeError("call reset() before step()")
        if isinstance(action, str):
            r = self.client.step(self.episode, action=action)
        else:
            r = self.client.step(self.episode, tool=action)
        self.last = r
        terminated, truncated = episode_end(r)
        return r.observation, r.reward, terminated, truncated, self._info(r)

    def state(self) -> Optional[Dict[str, Any]]:
        """What resumes this episode elsewhere: {"episode", "step", "token"}."""
        if self.last is None:
            return None
        return {"episode": self.last.episode, "step": self.last.step, "token": self.last.token}

    def close(self) -> None:
        """Closes the episode on the server, and the client if the
        environment made it."""
        if self.episode is not None:
            try:
                if self.client.trainer_token:
                    self.client.close(self.episode)
                else:
                    self.client.forget(self.episode)
            finally:
                self.episode = None
        if self._owns:
            self.client.close_connections()

    def __enter__(self) -> "SrezcEnv":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @staticmethod
    def _info(r: Reply) -> Dict[str, Any]:
        info: Dict[str, Any] = {"episode": r.episode, "step": r.step, "steps_left": r.steps_left, "token": r.token}
        if r.content is not None:
            info["content"] = r.content
        if r.grader is not None:
            info["grader"] = r.grader
        return info
