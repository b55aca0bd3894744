# Generates refrandom.json with CPython's own random module: the reference
# random agent's actions (SRE-Zero spec §11.2) for a few seeds, and raw
# getrandbits(32) outputs. Run: python3 refrandom.py > refrandom.json
import random, json
TYPES=["inspect_logs","inspect_metrics","check_status","inspect_config","restart_service","update_config","resolve_incident","escalate"]
SERVICES=["web_server","database","cache","message_queue","load_balancer","queue"]
KEYS=[None,"TIMEOUT_MS","DB_POOL_SIZE","TTL_SECONDS","CONSUMER_CONCURRENCY","MAX_CONNECTIONS","UNKNOWN"]
UPD={"web_server":"TIMEOUT_MS","database":"DB_POOL_SIZE","cache":"TTL_SECONDS","message_queue":"CONSUMER_CONCURRENCY","load_balancer":"MAX_CONNECTIONS","queue":"UNKNOWN"}
VALUES=[10,100,300,5000]
RC=["cache crashed","database pool exhaustion","web timeout misconfiguration","message queue backlog","load balancer misconfiguration","unknown root cause"]
FIX=["restart cache","increase database pool","increase web timeout","increase queue consumers","update load balancer config","no fix"]
def act(r):
    t=r.choice(TYPES); s=r.choice(SERVICES)
    if t in ("inspect_logs","inspect_metrics","check_status","restart_service"): return f"{t}({s})"
    if t=="inspect_config":
        k=r.choice(KEYS); return f"inspect_config({s})" if k is None else f"inspect_config({s}, {k})"
    if t=="update_config":
        v=r.choice(VALUES); return f"update_config({s}, {UPD[s]}, {v})"
    if t=="resolve_incident":
        rc=r.choice(RC); fx=r.choice(FIX); return f"resolve_incident({rc}, {fx})"
    return "escalate(random baseline escalation)"
out={}
for seed in [0,1,7,42,10001,123456789,2**32+3,2**63+11]:
    r=random.Random(seed)
    out[str(seed)]=[act(r) for _ in range(25)]
# raw MT outputs too
raw={}
for seed in [0,1,5489,2**32+3,2**63+11]:
    r=random.Random(seed); raw[str(seed)]=[r.getrandbits(32) for _ in range(5)]
print(json.dumps({"actions":out,"getrandbits32":raw},indent=1))
