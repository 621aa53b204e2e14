/**
 * Which replica embeds the landmarks: a Kubernetes Lease in a cluster, or standalone leadership
 * for a single replica.
 */
package dev.reed.coordinator.leader;
