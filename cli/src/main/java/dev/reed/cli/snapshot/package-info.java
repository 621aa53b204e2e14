/**
 * {@code ./reed snapshot}: downloads a coordinator's live coordinate snapshot through
 * {@code SnapshotService.StreamSnapshot} to CSV or JSON lines, for analysts.
 */
package dev.reed.cli.snapshot;
