/** `x-upload-helper`: the resumable upload helpers (`upload`, `resumeUpload`); build-helpers.ts makes them. */
import { defineExtension } from './extension.js';

export const uploadHelper = defineExtension({
  name: 'x-upload-helper',
  place: 'operation',
  readme: { where: 'operation', meaning: 'the resumable upload helpers (`upload`, `resumeUpload`)' },
  schema: {
    description: 'The resumable upload helpers.',
    type: 'object',
    required: ['method', 'resumeMethod', 'partUrls', 'uploadedParts', 'complete'],
    additionalProperties: false,
    properties: {
      method: { $ref: '#/$defs/snakeName' },
      resumeMethod: { $ref: '#/$defs/snakeName' },
      partUrls: { $ref: '#/$defs/operationId' },
      uploadedParts: { $ref: '#/$defs/operationId' },
      complete: { $ref: '#/$defs/operationId' },
      partMethod: { enum: ['PUT', 'POST'] },
      defaultPartSize: { type: 'integer', minimum: 1 },
      'x-assumed': { $ref: '#/$defs/reason' },
    },
  },
});
