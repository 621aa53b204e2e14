/**
 * Host integrity, pure logic: a landmark whose measurements disagree with the other landmarks'
 * ({@link dev.reed.coordinates.integrity.LandmarkResiduals}) is quarantined with hysteresis
 * ({@link dev.reed.coordinates.integrity.LandmarkQuarantine}) under one
 * {@link dev.reed.coordinates.integrity.QuarantineConfig}. Shared by the coordinator and the eval.
 */
package dev.reed.coordinates.integrity;
