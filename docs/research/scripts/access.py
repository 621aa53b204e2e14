# Figure: docs/research/ordering.md, "What did not work": a per-server additive correction from the truth does not raise P@10 (0.518 vs 0.545).
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/access.py
"""Per-server additive corrections (access delay): oracle and landmark-estimated."""
import numpy as np,sys
from common import *
M,S=load()
n=len(M)
res={}
for seed in [1,2]:
    rng,lm,nonl,X,V,P=landmark_setup(M,S,seed)
    D=np.linalg.norm(P[:,None,:]-P[None,:,:],axis=2)
    Rz=M-D  # residual (true - pred), rows client
    # oracle per-server additive: median residual in column t over rows with true<60
    near=M<60
    e_or=np.array([np.nanmedian(np.where(near[:,t],Rz[:,t],np.nan)) for t in range(n)])
    # landmark-based estimate: median residual over landmarks (V - dist to landmark coords)
    Dl=np.linalg.norm(P[:,None,:]-X[None,:,:],axis=2)
    e_lm=np.nanmedian(V-Dl,axis=1)
    e_min=np.nanmin(V,axis=1)
    for c in nonl[::3]:
        srv=nonl[nonl!=c]; true=M[c,srv]
        ok=~np.isnan(true); srv=srv[ok]; true=true[ok]
        xc=position(X,M[c,lm]); coord=np.linalg.norm(P[srv]-xc,axis=1)
        for k,p in {'coord':coord,'coord+oracle_e':coord+e_or[srv],'coord+lm_e':coord+e_lm[srv],'coord+0.3min':coord+0.3*e_min[srv]}.items():
            o=np.argsort(p); res.setdefault(k,[]).append((patk(o,true),allseen(o,true)))
for k,v in res.items():
    v=np.array(v); print(f'{k:20s} P@10 {v[:,0].mean():.3f} allseen {v[:,1].mean():.1f}')
