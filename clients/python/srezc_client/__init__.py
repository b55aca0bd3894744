"""srezc_client: a standard-library client for `srezc serve`.

    from srezc_client import Client, SrezcEnv, SrezcError

Client is the HTTP API (episodes, batches, groups, forks, the grader
view); SrezcEnv a Gymnasium-style environment over it.
"""

from .client import RETRYABLE, Client, Reply, SrezcError, tool_call
from .env import SrezcEnv, episode_end

__all__ = ["Client", "Reply", "SrezcError", "SrezcEnv", "episode_end", "tool_call", "RETRYABLE"]
__version__ = "0.1.0"
