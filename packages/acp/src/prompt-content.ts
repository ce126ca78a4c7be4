import { type ContentBlock, RequestError } from '@agentclientprotocol/sdk';
import type { ImageBlock, TextBlock } from '@agent-core/core';

/**
 * A prompt's ACP content as the user message's content: text as text, images
 * as images, a resource link as a line naming it, an embedded text resource
 * (a file the editor attached, unsaved edits included) as its text inside a
 * `<resource>` tag, an embedded image as an image. Audio is refused with
 * invalid params: the server does not advertise it.
 */
export function userContentOf(prompt: readonly ContentBlock[]): (TextBlock | ImageBlock)[] {
  const content: (TextBlock | ImageBlock)[] = [];
  for (const block of prompt) {
    switch (block.type) {
      case 'text':
        content.push({ type: 'text', text: block.text });
        break;
      case 'image':
        content.push({ type: 'image', data: block.data, mimeType: block.mimeType });
        break;
      case 'resource_link': {
        const title = block.title ?? block.name;
        content.push({ type: 'text', text: `[Resource: ${title} (${block.uri})]` });
        break;
      }
      case 'resource': {
        const resource = block.resource;
        if ('text' in resource) {
          content.push({
            type: 'text',
            text: `<resource uri="${resource.uri}">\n${resource.text}\n</resource>`,
          });
        } else if (resource.mimeType?.startsWith('image/')) {
          content.push({ type: 'image', data: resource.blob, mimeType: resource.mimeType });
        } else {
          content.push({
            type: 'text',
            text: `[Binary resource ${resource.uri} (${resource.mimeType ?? 'unknown type'}) attached; its content is not shown.]`,
          });
        }
        break;
      }
      default:
        throw RequestError.invalidParams(
          { type: block.type },
          `this agent takes text, images, resource links and embedded resources in a prompt; '${block.type}' content is not supported`,
        );
    }
  }
  if (content.length === 0)
    throw RequestError.invalidParams(undefined, 'the prompt is empty; send at least one text block');
  return content;
}
