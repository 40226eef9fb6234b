"""CPU ns per complete hk greedy deal on one thread, best of 5 x 200,000 deals (warm cache): robust to other jobs."""
import resource
from tianjiu_sim.game.rules import preset
from tianjiu_sim.sim.runner import run_deals
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime
rs = preset("hk"); run_deals(rs, ["greedy"], 1, 2000, threads=1)
best = 1e9
for k in range(5):
    c = cpu(); run_deals(rs, ["greedy"], 7 + k, 200_000, threads=1); best = min(best, 1e9 * (cpu() - c) / 200_000)
print(f"greedy hk best-of-5 {best:.0f} cpu-ns/deal")
