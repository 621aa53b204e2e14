/**
 * Operator plumbing shared by the long-running services (landmark agent, coordinator): the
 * formats of the operator's files ({@link dev.reed.runtime.TargetsFile}, {@link
 * dev.reed.runtime.DenyList}, {@link dev.reed.runtime.KafkaClientProperties}) and their reload
 * ({@link dev.reed.runtime.WatchedFile}), the duration grammar and environment defaults of every
 * command ({@link dev.reed.runtime.Durations}, {@link dev.reed.runtime.EnvironmentDefaults}), the
 * Kafka client factory ({@link dev.reed.runtime.KafkaClients}) and the {@code /metrics} +
 * {@code /healthz} server ({@link dev.reed.runtime.OpsServer}). The API contract is in {@code
 * dev.reed.proto}.
 */
package dev.reed.runtime;
