# Figure: docs/research/ordering.md, "Why P@10 0.75 ...": the table of gradient-boosted models (static P@10 0.57 / 0.67 / 0.67).
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/learned.py 1 2 3
"""Is P@10 capped by what 15 landmark RTTs say, or by what the coordinator can learn from them?
A gradient-boosted model (scikit-learn) predicts a client-server RTT from the client's calibration
RTTs (its 10 nearest landmarks) and the server's landmark vector and position. Trained on three
sources, tested as an order on the other half of the clients:
  landmarks - landmark-measured RTTs only (each landmark a client of the servers, its own column
              hidden): what a deployment has today;
  reports   - the RTTs half the clients measured to their 50 nearest servers: what the coordinator
              would have if clients reported their probes;
  truth     - every RTT among half the nodes (an oracle).
'adaptive' re-ranks after each probe by a Gaussian kernel (5 ms, in coordinates) over the log
residuals of the servers probed so far. Calibration (10) is counted in Intelligent and all-nearest.
Needs python3-sklearn (Debian). Args: seeds (default 1 2 3, the figures in docs/research/ordering.md)."""
import sys
import numpy as np
from common import *
try:
    from sklearn.ensemble import HistGradientBoostingRegressor
except ImportError:
    sys.exit('learned.py needs scikit-learn: apt-get install python3-sklearn (run with /usr/bin/python3)')

CAL, K, REPORT, W = 10, 6, 50, 20

def calibration(vc):
    """The client's RTTs to its CAL nearest landmarks; the rest unknown (nan)."""
    keep = np.argsort(np.where(np.isnan(vc), np.inf, vc))[:CAL]
    out = np.full_like(vc, np.nan); out[keep] = vc[keep]
    return out

def features(vc, Vs, Ps, X):
    ok = ~np.isnan(vc); xc = position(X[ok], vc[ok])
    coord = np.linalg.norm(Ps - xc, axis=1)
    order = np.argsort(np.where(np.isnan(vc), np.inf, vc))
    a = np.broadcast_to(vc[order], (len(Vs), len(vc))); b = Vs[:, order]
    w = 1 / np.maximum(np.fmin(Vs, vc), 1) ** 2; d = np.abs(Vs - vc)
    near = np.nansum(d * w, 1) / np.nansum(np.where(np.isnan(d), 0, w), 1)
    F = np.column_stack([np.log1p(coord), np.log1p(a[:, :K]), np.log1p(b[:, :K]), np.log1p(np.abs(a - b)[:, :K]),
                         np.log1p(near), np.log1p(np.nanmin(Vs + vc, 1)), np.log1p(np.nanmin(Vs, 1))])
    return F, coord

def fit(F, y):
    return HistGradientBoostingRegressor(max_iter=300, learning_rate=0.05, max_leaf_nodes=31,
                                         min_samples_leaf=20, random_state=0).fit(np.concatenate(F), np.log(np.maximum(np.concatenate(y), 0.1)))

def intelligent(order, true, k=10):
    best, last = [], 0
    for i, s in enumerate(order):
        if len(best) < k or true[s] < best[-1]:
            best = sorted(best + [true[s]])[:k]; last = i
        if len(best) >= k and i - last >= W:
            break
    return i + 1, np.mean(np.array(best) <= np.sort(true)[k - 1])

def adaptive(pred, Ps, true, sigma=5.0, lam=1.0, steps=120):
    probed = np.zeros(len(pred), bool); order = []; num = np.zeros(len(pred)); den = np.zeros(len(pred))
    for _ in range(min(steps, len(pred))):
        j = int(np.argmin(np.where(probed, np.inf, pred + num / (den + lam))))
        probed[j] = True; order.append(j)
        k = np.exp(-np.sum((Ps - Ps[j]) ** 2, 1) / (2 * sigma ** 2))
        num += k * (np.log(max(true[j], 0.1)) - pred[j]); den += k
    rest = np.where(~probed)[0]
    return np.array(order + list(rest[np.argsort((pred + num / (den + lam))[rest])]))

M, S = load()
rows = {}
for seed in [int(s) for s in sys.argv[1:]] or [1, 2, 3]:
    rng, lm, nonl, X, V, P = landmark_setup(M, S, seed)
    train = set(nonl[0::2].tolist())
    src = {'landmarks': ([], []), 'reports': ([], []), 'truth': ([], [])}
    for i, u in enumerate(lm):
        vc = S[u, lm].copy(); vc[i] = np.nan
        t = M[u, nonl]; ok = ~np.isnan(t); Vs = V[nonl[ok]].copy(); Vs[:, i] = np.nan
        F, _ = features(calibration(vc), Vs, P[nonl[ok]], X)
        src['landmarks'][0].append(F); src['landmarks'][1].append(t[ok])
    for c in nonl[0::2]:
        srv, true = servers_of(M, nonl, c); keep = np.isin(srv, list(train)); srv, true = srv[keep], true[keep]
        F, _ = features(calibration(M[c, lm].copy()), V[srv], P[srv], X)
        near = np.argsort(true)[:REPORT]
        src['reports'][0].append(F[near]); src['reports'][1].append(true[near])
        src['truth'][0].append(F); src['truth'][1].append(true)
    models = {name: fit(*data) for name, data in src.items()}
    for c in nonl[1::2]:
        srv, true = servers_of(M, nonl, c)
        F, coord = features(calibration(M[c, lm].copy()), V[srv], P[srv], X)
        preds = {'coordinates': np.log(np.maximum(coord, 0.1))} | {n: m.predict(F) for n, m in models.items()}
        for name, p in preds.items():
            for mode, order in (('static', np.argsort(p)), ('adaptive', adaptive(p, P[srv], true))):
                probes, precision = intelligent(order, true)
                rows.setdefault((name, mode), []).append((patk(order, true), probes + CAL, precision, allseen(order, true) + CAL))
    print(f'seed {seed} done', file=sys.stderr, flush=True)
print(f'{"trained on":12s} {"order":9s} {"P@10":>5s} {"Intelligent (precision)":>24s} {"all nearest":>11s}')
for (name, mode), v in rows.items():
    p, i, pr, a = np.mean(v, 0)
    print(f'{name:12s} {mode:9s} {p:5.2f} {i:15.1f} ({pr:.2f}) {a:11.1f}')
