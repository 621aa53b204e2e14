/**
 * Vivaldi coordinate updates (Dabek et al. 2004, with heights): one spring-relaxation step per RTT
 * sample, as immutable states.
 */
package dev.reed.coordinates.vivaldi;
