# Figure: docs/research/ordering.md, "What did not work", static predictors: a logistic ranker trained on the truth, P@10 0.59.
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/ltr.py
"""A logistic ranker over 8 landmark-vector and coordinate features, trained on the truth (even clients), tested on odd clients."""
import numpy as np,sys
from common import *
M,S=load()
n=len(M)
rng,lm,nonl,X,V,P=landmark_setup(M,S,1)
data=[]
for c in nonl:
    srv,true=servers_of(M,nonl,c)
    vc=M[c,lm]; xc=P[c]; coord=np.linalg.norm(P[srv]-xc,axis=1)
    D=np.abs(V[srv]-vc)
    w=1/np.maximum(np.minimum(V[srv],vc),1)
    F=np.c_[np.log1p(coord),np.log1p(np.nanmean(D,1)),np.log1p(np.nanmedian(D,1)),np.log1p(np.nanmax(D,1)),np.log1p(np.nanmin(V[srv]+vc,1)),
            np.nanmean(D/(V[srv]+vc),1), np.log1p(np.nansum(D*w,1)/np.nansum(w,1)), np.log1p(np.nanpercentile(D,25,1))]
    data.append((c,F,true))
def ev(names,wfun):
    r=[]
    for c,F,true in data[1::2]:
        s=wfun(F); o=np.argsort(s); r.append((patk(o,true),allseen(o,true)))
    return np.array(r).mean(0)
# train logistic on even clients
Xtr=np.concatenate([F for c,F,t in data[0::2]]); ytr=np.concatenate([topk_set(t) for c,F,t in data[0::2]]).astype(float)
mu=Xtr.mean(0); sd=Xtr.std(0); Z=(Xtr-mu)/sd
w=np.zeros(Z.shape[1]); b=0
for it in range(3000):
    p=1/(1+np.exp(-(Z@w+b))); g=Z.T@(p-ytr)/len(ytr); w-=0.5*g; b-=0.5*(p-ytr).mean()
print('weights',np.round(w,2))
for i,nm in enumerate(['coord','l1','med','linf','ub','relvec','wmean','p25']):
    print(nm, ev(None,lambda F:F[:,i]))
print('logistic',ev(None,lambda F:-(((F-mu)/sd)@w)))
