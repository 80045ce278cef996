import { inject, injectable } from 'inversify';
import { exhaustMap, finalize, from, Subject, type Observable } from 'rxjs';
import { TOKENS } from '../tokens';
import type { PlayMessages } from './play-messages.use-case';
import { StateStore } from './state-store';

interface Command {
  readonly work: () => Promise<void>;
  readonly onError: (() => void) | undefined;
  readonly done: () => void;
  taken: boolean;
}

/**
 * The one lane the play screen's commands travel (join, cancel, confirm, continue, finish): one at a
 * time (`exhaustMap`), so a second press while a command is on its way is dropped, never sent beside
 * it. `busy` shows on the buttons; a refusal shows its Japanese error_info. The line's polls wait
 * for the lane (`started$` stops one in flight: its answer would be from before the command).
 * One per play screen (request scope).
 */
@injectable()
export class PlayCommandLane extends StateStore<{ readonly busy: boolean }> {
  private readonly commands = new Subject<Command>();
  private readonly starts = new Subject<void>();
  /** A command started. */
  readonly started$: Observable<void> = this.starts.asObservable();

  constructor(@inject(TOKENS.PlayMessages) private readonly messages: PlayMessages) {
    super({ busy: false });
    this.own(
      this.commands
        .pipe(
          exhaustMap((command) => {
            command.taken = true;
            this.setState({ busy: true });
            this.starts.next();
            return from(this.execute(command)).pipe(
              finalize(() => {
                this.setState({ busy: false });
                command.done();
              }),
            );
          }),
        )
        .subscribe(),
    );
    this.own(() => this.starts.complete());
  }

  /**
   * Runs `work` in the lane; resolves once it ended (at once when another command holds the lane,
   * or the screen is closed). A failure shows its refusal text and runs `onError`.
   */
  run(work: () => Promise<void>, onError?: () => void): Promise<void> {
    if (this.disposed) return Promise.resolve();
    return new Promise<void>((done) => {
      const command: Command = { work, onError, done, taken: false };
      this.commands.next(command);
      if (!command.taken) done();
    });
  }

  private async execute(command: Command): Promise<void> {
    try {
      await command.work();
    } catch (error) {
      this.messages.refused(error);
      command.onError?.();
    }
  }
}
