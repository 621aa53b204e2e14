# Figure: docs/research/ordering.md, "Landmark comparison": the near-landmark difference as a static order, P@10 0.557 vs 0.562 for the coordinates.
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/vec.py km
"""Weighted landmark-vector differences (the near-landmark difference and variants) as static orders."""
import numpy as np,sys
from common import *
M,S=load()
n=len(M)
res={}
strat=sys.argv[1] if len(sys.argv)>1 else 'km'
for seed in [1,2,3]:
    rng,lm,nonl,X,V,P=landmark_setup(M,S,seed,'km' if strat=='km' else 'random')
    for c in nonl[::3]:
        srv,true=servers_of(M,nonl,c)
        vc=M[c,lm]; xc=position(X,vc); coord=np.linalg.norm(P[srv]-xc,axis=1)
        D=np.abs(V[srv]-vc)
        preds={'coord':coord}
        for pw in [2,3,4]:
            w=1/np.maximum(np.minimum(V[srv],vc),1)**pw
            preds[f'wmin^{pw}']=np.nansum(D*w,1)/np.nansum(w,1)
            w=1/np.maximum(V[srv]+vc,1)**pw
            preds[f'wsum^{pw}']=np.nansum(D*w,1)/np.nansum(w,1)
            w=np.broadcast_to(1/np.maximum(vc,1)**pw,D.shape)
            preds[f'wc^{pw}']=np.nansum(D*w,1)/np.nansum(w,1)
        for kk in [3,5]:
            idx=np.argsort(vc)[:kk]; preds[f'near{kk}mean']=np.nanmean(D[:,idx],1); preds[f'near{kk}max']=np.nanmax(D[:,idx],1)
        for k,p in preds.items():
            o=np.argsort(p,kind='stable'); res.setdefault(k,[]).append((patk(o,true),allseen(o,true)))
for k,v in res.items():
    v=np.array(v); print(f'{k:12s} P@10 {v[:,0].mean():.3f} allseen {v[:,1].mean():.1f} p90 {np.percentile(v[:,1],90):.0f}')
