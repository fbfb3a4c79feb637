/** A create-instance draft with every required field filled (valid as it stands), for unit tests. Not used by the app. */
import { emptyDraft, type CreateDraft } from '../create/create-form'

export function filledDraft(overrides: Partial<CreateDraft> = {}): CreateDraft {
  return { ...emptyDraft(), name: 'train', imageId: 'img-pytorch', instanceTypeId: 'gpu-a100-1', region: 'sg-1', ...overrides }
}
