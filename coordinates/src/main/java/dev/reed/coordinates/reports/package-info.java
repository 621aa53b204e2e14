/**
 * Learning from what clients measure, free of I/O: a client reports the RTTs its
 * discovery measured ({@link dev.reed.coordinates.reports.ClientReport}), the coordinator screens
 * each RTT against what its landmarks measured ({@link dev.reed.coordinates.reports.ReportScreen}),
 * keeps the survivors as per-server residuals against the coordinates, and corrects a later
 * client's predictions by the residuals that reporters near it saw
 * ({@link dev.reed.coordinates.reports.NeighbourhoodCorrections}), all parameters in one
 * {@link dev.reed.coordinates.reports.ReportConfig}.
 *
 * <p>Why: 15 landmarks see every server from afar; a discovery measures the pairs that decide a
 * first page, a player and the 40-60 servers nearest to it. A host a few ms from a reporter sees
 * nearly what the reporter saw (docs/research/client-reports.md has the numbers). Related work:
 * Vivaldi (Dabek et al., SIGCOMM 2004) and Htrae (Agarwal &amp; Lorch, SIGCOMM 2009) refine
 * coordinates from the probes hosts already make; Nadaraya-Watson kernel regression with a weighted
 * median (robust to a minority of liars) instead of a mean; IDMaps' triangle bounds (Francis et al.
 * 2001) and the speed of light in fibre to reject impossible reports.
 */
package dev.reed.coordinates.reports;
