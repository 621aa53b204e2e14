/**
 * Client reports in the coordinator: {@link dev.reed.coordinator.reports.ReportIntake}
 * validates a ReportMeasurements call and publishes it on reed.client-reports with keyed-hash group
 * keys instead of the client's address ({@link dev.reed.coordinator.reports.GroupKeys});
 * {@link dev.reed.coordinator.reports.ReportLearning} reads the topic on every replica, screens each
 * report against the replica's current servers and learns the survivors into the
 * {@link dev.reed.coordinates.reports.NeighbourhoodCorrections} the rankings read their
 * {@code report_factor} from.
 */
package dev.reed.coordinator.reports;
