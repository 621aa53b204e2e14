/**
 * {@code ./reed browse}: the reference command-line server browser on the client SDK (REED
 * discovery with a live table, {@code --json}, {@code --locate}, group ranking, comparison with
 * traditional discovery).
 */
package dev.reed.cli.browse;
