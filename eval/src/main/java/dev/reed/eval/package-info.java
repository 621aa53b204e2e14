/**
 * {@code ./reed eval}: REED evaluated offline on a measured RTT matrix (paper section 5): landmark
 * choice, coordinate accuracy, probe order and auto-stop, with reports, tables and plots.
 */
package dev.reed.eval;
