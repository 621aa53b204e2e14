# Figure: docs/research/ordering.md, "What did not work", robust losses: weighting near landmarks harder (residual / d^p) raised the error.
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/wexp.py
"""Weighting near landmarks harder in the server fit: residual / d^p for p = 1, 1.5, 2."""
import numpy as np,sys
from common import *
M,S=load()
n=len(M)
def posp(X,r,p):
    ok=~np.isnan(r)&(r>0); x0=X[ok][np.argmin(r[ok])]+0.1
    f=lambda x:(np.linalg.norm(X[ok]-x,axis=1)-r[ok])/np.maximum(r[ok],1)**p
    return least_squares(f,x0,method='lm').x
res={};errs={}
for seed in [1,2,3]:
    rng,lm,nonl,X,V,_=landmark_setup(M,S,seed,positions=False)
    for p in [1,1.5,2]:
        P=np.array([posp(X,V[s],p) for s in range(n)])
        for c in nonl[::3]:
            srv,true=servers_of(M,nonl,c)
            coord=np.linalg.norm(P[srv]-P[c],axis=1)
            o=np.argsort(coord); res.setdefault(p,[]).append((patk(o,true),allseen(o,true)))
            errs.setdefault(p,[]).append(np.abs(coord-true)/true)
for k,v in res.items():
    v=np.array(v); print(f'p={k} relerr {np.median(np.concatenate(errs[k])):.4f} P@10 {v[:,0].mean():.3f} allseen {v[:,1].mean():.1f}')
