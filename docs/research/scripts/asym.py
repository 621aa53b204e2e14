# Figure: docs/research/ordering.md, "Why P@10 0.75 ...": hosts a median 5.3 ms apart differ to a third node by 4.2 ms (median), 15.5 ms (p90).
# Reproduce (from the repository root; the matrix is read from data/, or $REED_DATA):
#   /usr/bin/python3 docs/research/scripts/asym.py
"""Asymmetry and how much two nearby hosts' RTTs to a third node differ (triangle-inequality violations)."""
import numpy as np
from common import *
M,S=load()
A=M-M.T
n=len(M)
rowbias=np.nanmedian(A,1)
print('per-node median(M[i,x]-M[x,i]) pct',np.percentile(rowbias,[1,5,25,50,75,95,99]))
print('abs asym pct over pairs',np.nanpercentile(np.abs(A),[50,75,90,95,99]))
# relative to rtt
R=np.abs(A)/np.minimum(M,M.T)
print('rel asym pct',np.nanpercentile(R,[50,75,90,95,99]))
# near pairs
near=np.minimum(M,M.T)<10
print('near pairs abs asym pct',np.nanpercentile(np.abs(A[near]),[50,75,90,95,99]))
# TIV: for near pairs (a,b)<10, max_x |M[a,x]-M[b,x]|
rows=[]
idx=np.argwhere(near&(np.arange(n)[:,None]<np.arange(n)[None,:]))
for a,b in idx[:3000]:
    d=np.abs(M[a]-M[b]); d2=np.abs(S[a]-S[b])
    rows.append((M[a,b],np.nanpercentile(d,50),np.nanpercentile(d,90),np.nanmax(d),np.nanmax(d2)))
R=np.array(rows); print('near pairs: rtt med %.1f, |row diff| med %.1f p90 %.1f max %.1f, sym max %.1f'%tuple(np.median(R,0)))
