# Figure: docs/research/ordering.md, "Landmark comparison": the near-pair lower bound, a median 22 ms for true top-10 pairs at a median 4.8 ms.
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/diag2.py
"""The true 10 nearest by predicted rank: server fit error, landmark lower bound, nearest-landmark RTTs."""
import numpy as np,sys
from common import *
M,S=load()
n=len(M)
rng,lm,nonl,X,V,P=landmark_setup(M,S,1)
Dl=np.linalg.norm(P[:,None,:]-X[None,:,:],axis=2)
fe=np.nanmedian(np.abs(Dl-V)/V,1)
bad=[];good=[]; lbr=[]; rows=[]
for c in nonl[::2]:
    srv,true=servers_of(M,nonl,c)
    xc=position(X,M[c,lm]); coord=np.linalg.norm(P[srv]-xc,axis=1)
    lb=np.nanmax(np.abs(V[srv]-M[c,lm]),1)
    o=np.argsort(coord); pos=np.empty(len(o),int); pos[o]=np.arange(len(o))
    for i in np.argsort(true)[:10]:
        rows.append((pos[i],fe[srv[i]],true[i],coord[i],lb[i],np.nanmin(V[srv[i]]), fe[c], np.nanmin(M[c,lm])))
R=np.array(rows)
print('all fe pct',np.percentile(fe[nonl],[25,50,75,90]))
for lo,hi in [(0,10),(10,40),(40,100),(100,1000)]:
    m=(R[:,0]>=lo)&(R[:,0]<hi)
    print(f'rank {lo}-{hi}: n={m.sum()} server fe med {np.median(R[m,1]):.3f} true {np.median(R[m,2]):.1f} coord {np.median(R[m,3]):.1f} lb {np.median(R[m,4]):.1f} srv minLM {np.median(R[m,5]):.1f} client fe {np.median(R[m,6]):.3f} client minLM {np.median(R[m,7]):.1f}')
