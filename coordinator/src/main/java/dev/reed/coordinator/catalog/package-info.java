/**
 * What the landmarks probe: the target catalog published on {@code reed.targets} (static file,
 * master-server crawls, deny list), and the Quake3 and Valve master-server front ends that list
 * it to ordinary server browsers.
 */
package dev.reed.coordinator.catalog;
