# Imported by every script here (not run on its own).
"""Shared pieces of the analysis scripts: load planetlab490, k-medoids, GNP embedding and
positioning (scipy least squares), and the ranking metrics of ./reed eval."""
import os
import numpy as np
from scipy.optimize import least_squares
DEFAULT = os.path.join(os.environ.get('REED_DATA', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'data')),
                       'planetlab490_netlatency', 'matrix.csv')

def load(path=DEFAULT):
    rows=[]
    for line in open(path):
        rows.append([float(x) if x.strip() else np.nan for x in line.strip().split(',')])
    M=np.array(rows)
    S=np.where(np.isnan(M),M.T,np.where(np.isnan(M.T),M,(M+M.T)/2))
    return M,S
def kmedoids(S,k,rng,iters=20):
    n=len(S); D=np.nan_to_num(S,nan=1e6)
    # kmeans++ seeding
    c=[rng.integers(n)]
    for _ in range(k-1):
        d=D[:,c].min(1)**2; p=d/d.sum(); c.append(rng.choice(n,p=p))
    c=np.array(c)
    for _ in range(iters):
        a=D[:,c].argmin(1)
        new=c.copy()
        for j in range(k):
            mem=np.where(a==j)[0]
            if len(mem)==0: continue
            new[j]=mem[D[np.ix_(mem,mem)].sum(1).argmin()]
        if (new==c).all(): break
        c=new
    return np.sort(c)
def embed(L,dims=4,rng=None,restarts=5):
    k=len(L); iu=np.triu_indices(k,1); d=L[iu]; ok=~np.isnan(d)&(d>0)
    best=None
    for r in range(restarts):
        x0=rng.normal(0,np.nanmean(d)/2,(k,dims)).ravel()
        f=lambda x:((np.linalg.norm(x.reshape(k,dims)[iu[0]]-x.reshape(k,dims)[iu[1]],axis=1)-d)/d)[ok]
        res=least_squares(f,x0,method='lm')
        if best is None or res.cost<best.cost: best=res
    return best.x.reshape(k,dims)
def position(X,r,x0=None):
    ok=~np.isnan(r)&(r>0); 
    if x0 is None: x0=X[ok][np.argmin(r[ok])]+0.1
    f=lambda x:(np.linalg.norm(X[ok]-x,axis=1)-r[ok])/r[ok]
    return least_squares(f,x0,method='lm').x
def topk_set(true,k=10):
    t=np.sort(true)[k-1]; return true<=t
def patk(order,true,k=10):
    good=topk_set(true,k); return good[order[:k]].mean()
def allseen(order,true,k=10):
    idx=np.argsort(true,kind='stable')[:k]
    pos=np.empty(len(order),int); pos[order]=np.arange(len(order))
    return pos[idx].max()+1
def landmark_setup(M,S,seed,strategy='km',k=15,dims=4,positions=True):
    """One landmark seed, set up the way every script here does: the seed's generator (for later
    draws), the landmarks (k-medoids, or random with strategy 'random'), the other nodes, the
    landmarks' embedding X, every node's landmark vector V (V[s,i] = RTT from landmark i to s) and
    every node's position P fitted from V (None with positions=False)."""
    n=len(M); rng=np.random.default_rng(seed)
    lm=kmedoids(S,k,rng) if strategy=='km' else np.sort(rng.choice(n,k,replace=False))
    nonl=np.setdiff1d(np.arange(n),lm)
    X=embed(S[np.ix_(lm,lm)],dims,rng)
    V=M[lm,:].T
    P=np.array([position(X,V[s]) for s in range(n)]) if positions else None
    return rng,lm,nonl,X,V,P
def servers_of(M,nonl,c):
    """Client c's servers (every other non-landmark it has an RTT to) and its true RTTs to them."""
    srv=nonl[nonl!=c]; true=M[c,srv]; ok=~np.isnan(true)
    return srv[ok],true[ok]
