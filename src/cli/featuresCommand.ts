// `cartograph features` answered in the CLI's own process (no repository service): the hierarchy read
// from the store (caught up with the graph, saved when it changed), the answer made by
// core/features/featuresAnswer.ts as the service makes it.
import type { Engine } from '../core/engine';
import type { DescriptionCache } from '../core/lifting/descriptionCache';
import { currentHierarchy } from '../core/features/featureStore';
import { featuresAnswer } from '../core/features/featuresAnswer';
import type { Flags } from './flags';
import { printFeatures } from './printAnswers';

/** `described`: `cartograph describe`'s descriptions (a model's reading of each function and class), which lift features too. */
export async function features(target: string, flags: Flags, engine: Engine, described: DescriptionCache): Promise<number> {
  const { hierarchy, source, update, ms, saveError } = await currentHierarchy(engine.graph, engine.storeInfo().dir ?? null, (hash) => described.get(hash));
  if (saveError) console.error(`cartograph features: the areas could not be saved with the index (${saveError}); they are worked out again next time`);
  const request = { target, cwd: process.cwd(), json: Boolean(flags.json) };
  return printFeatures(featuresAnswer(hierarchy, engine.graph.graph, engine.root, request, { source, ms, ...(update ? { update } : {}) }));
}
