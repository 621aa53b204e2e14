/**
 * Network coordinates without I/O: the coordinate value, landmark embedding and host positioning
 * (GNP, Ng &amp; Zhang 2002), the landmark comparison that refines a predicted RTT, and the
 * measured-RTT matrix format the evaluation reads.
 */
package dev.reed.coordinates;
