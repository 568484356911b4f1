import { describe, expect, it } from 'vitest';
import { overlayAt } from './overlays';

describe('overlayAt', () => {
  it('finds each overlay in any case, with or without a trailing slash', () => {
    expect(overlayAt('/overlay/giveaway')).toBe('/overlay/giveaway');
    expect(overlayAt('/Overlay/Hunt/')).toBe('/overlay/hunt');
    expect(overlayAt('/kick/Prediction/overlay')).toBe('/kick/prediction/overlay');
  });

  it('is null for the site’s pages and for paths that only start like an overlay', () => {
    expect(overlayAt('/')).toBeNull();
    expect(overlayAt('/giveaway')).toBeNull();
    expect(overlayAt('/overlay')).toBeNull();
    expect(overlayAt('/overlay/giveaway/x')).toBeNull();
    expect(overlayAt('/kick/prediction')).toBeNull();
  });
});
