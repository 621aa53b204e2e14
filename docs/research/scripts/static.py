# Figure: docs/research/ordering.md, "What did not work", static predictors: L-inf 0.44, L1 0.55, L2 0.51, upper bound 0.27.
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/static.py km
"""Static orders from landmark-vector predictors vs coordinates: P@10 and "all 10 nearest seen" (server probes). Arg: km | random."""
import numpy as np,sys
from common import *
M,S=load()
n=len(M)
res={}
for seed in [1,2,3]:
    rng,lm,nonl,X,V,P=landmark_setup(M,S,seed,'km' if sys.argv[1]=='km' else 'random')
    for c in nonl[::3]:
        srv,true=servers_of(M,nonl,c)
        vc=M[c,lm]; xc=position(X,vc)
        coord=np.array([np.linalg.norm(P[s]-xc) for s in srv])
        Vs=V[srv]
        diff=np.abs(Vs-vc)
        linf=np.nanmax(diff,1); l2=np.sqrt(np.nanmean(diff**2,1)); l1=np.nanmean(diff,1)
        ub=np.nanmin(Vs+vc,1)
        rel=np.nanmean(np.abs(Vs-vc)/(Vs+vc),1)
        preds={'coord':coord,'linf':linf,'l2':l2,'l1':l1,'ub':ub,'max(coord,linf)':np.maximum(coord,linf),
               'coord+linf':coord+linf,'relvec':rel,'(lb+ub)/2':(linf+ub)/2,'sqrt(lb*ub)':np.sqrt(np.maximum(linf,0.1)*ub)}
        for k,p in preds.items():
            o=np.argsort(p,kind='stable')
            res.setdefault(k,[]).append((patk(o,true),allseen(o,true)))
for k,v in res.items():
    v=np.array(v); print(f'{k:20s} P@10 {v[:,0].mean():.3f} allseen {v[:,1].mean():.1f}')
