# Figure: docs/research/ordering.md, "Why P@10 0.75 ...": a client placed from its true RTTs to all servers orders its 10 nearest with P@10 0.60.
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/oracle.py
"""The ceiling of the servers' coordinates: a client placed from its true RTTs to all / its nearest servers."""
import numpy as np,sys
from common import *
M,S=load()
n=len(M)
res={}
def posw(Xs,r,w,x0):
    ok=~np.isnan(r)&(r>0)
    f=lambda x:w[ok]*(np.linalg.norm(Xs[ok]-x,axis=1)-r[ok])/r[ok]
    return least_squares(f,x0,method='lm').x
for seed in [1,2]:
    rng,lm,nonl,X,V,P=landmark_setup(M,S,seed)
    for c in nonl[::4]:
        srv,true=servers_of(M,nonl,c)
        vc=M[c,lm]; xc=position(X,vc)
        variants={'landmarks':xc}
        variants['all']=posw(P[srv],true,np.ones(len(srv)),xc)
        near=np.argsort(true)[:30]
        variants['near30']=posw(P[srv[near]],true[near],np.ones(30),xc)
        near=np.argsort(true)[:12]
        variants['near12']=posw(P[srv[near]],true[near],np.ones(12),xc)
        for k,x in variants.items():
            p=np.linalg.norm(P[srv]-x,axis=1); o=np.argsort(p)
            res.setdefault(k,[]).append((patk(o,true),allseen(o,true)))
        # perfect-knowledge upper bound on coordinates: what if we rank by true dist among coords? n/a
for k,v in res.items():
    v=np.array(v); print(f'{k:20s} P@10 {v[:,0].mean():.3f} allseen {v[:,1].mean():.1f}')
