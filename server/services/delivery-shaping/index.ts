// The door of traffic shaping per provider (docs/delivery.md, "Traffic shaped per provider").
export { DeliveryShaper, type PauseAlert } from './shaper';
export { databaseShapingStore } from './store';
export { raisePauseAlert } from './alerts';
export { deliveryStatus, type ProviderStatus } from './status';
export { pauseProvider, resumeProvider } from './operator';
export { KNOWN_PROVIDERS, OTHER_LIMITS, providerIdOf } from './providers';
export { parseLimitOverrides, limitsFor } from './limits';
