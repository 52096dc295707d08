/** `x-upload-helper`: the resumable upload helpers (`upload`, `resumeUpload`); build-helpers.ts makes them. */
import { assumedOf } from './x-assumed.js';
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
  helpers(upload, op, { ref, named }) {
    const ops = {
      create: op,
      partUrls: ref('x-upload-helper', upload.partUrls),
      uploadedParts: ref('x-upload-helper', upload.uploadedParts),
      complete: ref('x-upload-helper', upload.complete),
    };
    const source = `${op.id} x-upload-helper`;
    return [
      { kind: 'upload', ...named(upload.method, 'x-upload-helper'), source, ...ops, assumed: assumedOf(upload) },
      {
        kind: 'resume-upload',
        ...named(upload.resumeMethod, 'x-upload-helper'),
        source,
        ...ops,
        assumed: assumedOf(upload),
      },
    ];
  },
});
