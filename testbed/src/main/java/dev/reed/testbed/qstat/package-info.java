/**
 * Runs the real {@code quakestat} client against servers and parses its raw output, as an
 * independent check of what the probes read.
 */
package dev.reed.testbed.qstat;
