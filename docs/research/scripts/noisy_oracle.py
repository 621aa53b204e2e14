# Figure: docs/research/ordering.md, "How the probe targets relate to P@10": sigma 0.3 gives P@10 0.76 and Intelligent 40.7 after calibration.
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/noisy_oracle.py
"""How P@10 and Intelligent N_close move together: every client probes its servers in the order of
their true RTT times a log-normal error (sigma), the order a predictor with that much relative
error would give. Prints, per sigma, First P@10, Intelligent(10, W 20) probes after calibration
and its precision, and the probes until all 10 nearest are seen: which order quality the issue's
probe targets need, whatever produces it. Every client of planetlab490 (all 490 nodes; landmarks
do not matter here), 5 noise seeds."""
import sys
import numpy as np
from common import load, topk_set

def intelligent(rtts, n_close=10, window=20):
    best = []
    since = 0
    for i, r in enumerate(rtts):
        changed = False
        if len(best) < n_close:
            best.append(r); changed = True
        elif r < max(best):
            best.remove(max(best)); best.append(r); changed = True
        since = 0 if changed else since + 1
        if len(best) == n_close and since >= window:
            return i + 1, best
    return len(rtts), best

M, S = load()
n = len(S)
print("sigma  P@10  intelligent(after calibration)  precision  all-nearest(after calibration)")
for sigma in [0.0, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5]:
    p10 = []; intel = []; prec = []; alln = []
    for seed in range(5):
        rng = np.random.default_rng(seed)
        for c in range(n):
            servers = np.array([j for j in range(n) if j != c])
            true = S[c, servers]
            order = np.argsort(true * np.exp(rng.normal(0, sigma, len(true))))
            good = topk_set(true)
            p10.append(good[order[:10]].mean())
            k, found = intelligent(true[order])
            intel.append(k)
            thr = np.sort(true)[9]
            prec.append(np.mean(np.array(found) <= thr))
            alln.append(np.max(np.nonzero(good[order])[0]) + 1)
    print(f"{sigma:5.2f}  {np.mean(p10):.2f}  {np.mean(intel):6.1f}  {np.mean(prec):.2f}  {np.mean(alln):6.1f}")
    sys.stdout.flush()
