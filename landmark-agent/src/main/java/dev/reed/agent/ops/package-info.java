/**
 * The agent's operations endpoint: Prometheus {@code /metrics} and {@code /healthz} on the JDK's
 * HTTP server.
 */
package dev.reed.agent.ops;
