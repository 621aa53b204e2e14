# Figure: docs/research/ordering.md, "Why P@10 0.75 ...": the 10th-nearest server a median 11 ms away, 0.25 ms to the 11th.
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/diag.py
"""What the misses look like: false positives vs the true 10th-nearest RTT, its gap to the 11th, predicted ranks of the true 10."""
import numpy as np,sys
from common import *
M,S=load()
n=len(M)
ratios=[];thr=[];ranks=[]
rng,lm,nonl,X,V,P=landmark_setup(M,S,1)
gaps=[]
for c in nonl[::2]:
    srv,true=servers_of(M,nonl,c)
    xc=position(X,M[c,lm]); coord=np.linalg.norm(P[srv]-xc,axis=1)
    o=np.argsort(coord); t=np.sort(true); th=t[9]; thr.append(th); gaps.append(t[10]-t[9])
    fp=[true[i]/th for i in o[:10] if true[i]>th]; ratios+=fp
    pos=np.empty(len(o),int); pos[o]=np.arange(len(o))
    ranks+=list(pos[np.argsort(true)[:10]])
r=np.array(ratios); print('FP count',len(r),'ratio pct 25/50/75/90',np.percentile(r,[25,50,75,90]))
print('threshold pct',np.percentile(thr,[10,25,50,75,90]))
print('gap 10->11 pct',np.percentile(gaps,[25,50,75]))
print('pred rank of true top10 pct',np.percentile(ranks,[50,75,90,95,99]))
