/**
 * {@code ./reed COMMAND}: the distribution's one entry point, gathering every module's picocli
 * command ({@link dev.reed.cli.Reed}); the commands that are tools rather than services (demo,
 * browse, snapshot) live in its sub-packages.
 */
package dev.reed.cli;
