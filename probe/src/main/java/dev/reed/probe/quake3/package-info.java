/**
 * The Quake3 family's out-of-band queries (getinfo, getstatus): requests and parsed replies.
 */
package dev.reed.probe.quake3;
