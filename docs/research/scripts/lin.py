# Figure: docs/research/ordering.md, "What did not work", static predictors: linear models of the client row, P@10 0.04-0.41.
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/lin.py
"""Linear models of a client's RTT row from the landmark rows (oracle-fitted on its nearest servers)."""
import numpy as np,sys
from common import *
from scipy.optimize import nnls
M,S=load()
n=len(M)
res={}
for seed in [1,2]:
    rng,lm,nonl,X,V,P=landmark_setup(M,S,seed)
    V=np.nan_to_num(V,nan=200)
    for c in nonl[::4]:
        srv,true=servers_of(M,nonl,c)
        xc=position(X,M[c,lm]); coord=np.linalg.norm(P[srv]-xc,axis=1)
        preds={'coord':coord}
        o=np.argsort(true)
        for k in [10,20,40]:
            idx=o[:k]
            A=np.c_[V[srv[idx]],np.ones(k)]; w=np.linalg.lstsq(A,true[idx],rcond=1e-3)[0]
            preds[f'lin-oracle{k}']=np.c_[V[srv],np.ones(len(srv))]@w
            wn,_=nnls(np.c_[V[srv[idx]],np.ones(k)],true[idx])
            preds[f'nnls-oracle{k}']=np.c_[V[srv],np.ones(len(srv))]@wn
            # coords + linear residual correction
            A2=np.c_[V[srv[idx]],np.ones(k)]; w2=np.linalg.lstsq(A2,true[idx]-coord[idx],rcond=1e-3)[0]
            preds[f'coord+linres{k}']=coord+np.c_[V[srv],np.ones(len(srv))]@w2
        for kk,p in preds.items():
            oo=np.argsort(p); res.setdefault(kk,[]).append((patk(oo,true),allseen(oo,true)))
for k,v in res.items():
    v=np.array(v); print(f'{k:20s} P@10 {v[:,0].mean():.3f} allseen {v[:,1].mean():.1f}')
