/**
 * The coordinator's operations endpoint: Prometheus {@code /metrics} and {@code /healthz}.
 */
package dev.reed.coordinator.metrics;
