import { z } from 'zod';
import {
  addToSegmentConfig,
  AUTOMATION_LIMITS,
  conditionSchema,
  contactDeleteConfig,
  contactUpdateConfig,
  delayConfig,
  sendEmailConfig,
  triggerConfigDoc,
  waitForEventConfig,
} from '../services/automations';
import { STEP_TYPES, type StepType } from '../vocabulary/automations';

// What the OpenAPI document says of `steps`: one shape per step type, its config written out from
// the schemas the service reads configs with. The edge itself takes any config object, so that the
// service's refusal can name the step; this keeps the document as exact as the rules.

const CONFIGS: Record<StepType, z.ZodType> = {
  trigger: triggerConfigDoc,
  delay: delayConfig,
  send_email: sendEmailConfig,
  wait_for_event: waitForEventConfig,
  condition: conditionSchema,
  contact_update: contactUpdateConfig,
  contact_delete: contactDeleteConfig,
  add_to_segment: addToSegmentConfig,
};

const jsonSchemaOf = (schema: z.ZodType): Record<string, unknown> => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

/** The `steps` array as the document shows it: each item one of the step types with its config. */
export const stepsDocument = {
  type: 'array',
  minItems: 1,
  maxItems: AUTOMATION_LIMITS.steps,
  items: {
    oneOf: STEP_TYPES.map((type) => ({
      type: 'object',
      additionalProperties: false,
      required: ['key', 'type', 'config'],
      properties: {
        key: { type: 'string', minLength: 1, maxLength: AUTOMATION_LIMITS.keyChars, pattern: '^[A-Za-z0-9_.-]+$' },
        type: { type: 'string', const: type },
        config: jsonSchemaOf(CONFIGS[type]),
      },
    })),
  },
};
