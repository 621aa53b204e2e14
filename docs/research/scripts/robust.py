# Figure: docs/research/ordering.md, "What did not work", robust losses: Huber 0.1-0.3 neutral, Cauchy 0.05 P@10 0.52 vs 0.58.
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/robust.py
"""Robust losses (Huber, Cauchy) for server positioning."""
import numpy as np,sys
from common import *
M,S=load()
n=len(M)
def posr(X,r,loss,fs,x0=None):
    ok=~np.isnan(r)&(r>0)
    if x0 is None: x0=X[ok][np.argmin(r[ok])]+0.1
    f=lambda x:(np.linalg.norm(X[ok]-x,axis=1)-r[ok])/r[ok]
    return least_squares(f,x0,loss=loss,f_scale=fs).x
res={};errs={}
for seed in [1,2]:
    rng,lm,nonl,X,V,_=landmark_setup(M,S,seed,positions=False)
    for name,loss,fs in [('lin','linear',1),('huber.3','huber',0.3),('huber.1','huber',0.1),('cauchy.1','cauchy',0.1),('cauchy.05','cauchy',0.05),('cauchy.02','cauchy',0.02)]:
        P=np.array([posr(X,V[s],loss,fs) for s in range(n)])
        for c in nonl[::4]:
            srv,true=servers_of(M,nonl,c)
            xc=P[c]; coord=np.linalg.norm(P[srv]-xc,axis=1)
            errs.setdefault(name,[]).append(np.abs(coord-true)/true)
            o=np.argsort(coord); res.setdefault(name,[]).append((patk(o,true),allseen(o,true)))
for k,v in res.items():
    v=np.array(v); e=np.concatenate(errs[k]); print(f'{k:12s} relerr median {np.median(e):.4f} P@10 {v[:,0].mean():.3f} allseen {v[:,1].mean():.1f}')
