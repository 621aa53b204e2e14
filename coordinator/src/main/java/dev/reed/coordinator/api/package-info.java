/**
 * The coordinator's gRPC front end: ReedService (calibration servers, ordered pages, group
 * ranking, locate) and SnapshotService, the Netty server with TLS, and API-key authentication.
 */
package dev.reed.coordinator.api;
